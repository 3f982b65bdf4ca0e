import { describeStoreContract } from './repositories.contract';
import { describeOnMongo } from './mongoHarness';

describeOnMongo('contract suite', describeStoreContract);
