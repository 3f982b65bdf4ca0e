import { describeNoncesContract } from './nonces.contract';
import { describeOnMongo } from './mongoHarness';

describeOnMongo('nonces contract', describeNoncesContract);
