import { describePaymentLocksContract } from './paymentLocks.contract';
import { describeOnMongo } from './mongoHarness';

describeOnMongo('payment locks contract', describePaymentLocksContract);
