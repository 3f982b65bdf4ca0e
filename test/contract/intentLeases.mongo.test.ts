import { describeIntentLeasesContract } from './intentLeases.contract';
import { describeOnMongo } from './mongoHarness';

describeOnMongo('intent leases contract', describeIntentLeasesContract);
