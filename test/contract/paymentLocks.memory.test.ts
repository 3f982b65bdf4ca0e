import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describePaymentLocksContract } from './paymentLocks.contract';

describePaymentLocksContract('memory', async () => createMemoryStore());
