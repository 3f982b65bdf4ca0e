import { describeIntentRepoContract } from './intents.contract';
import { describeOnMongo } from './mongoHarness';

describeOnMongo('intent repo contract', describeIntentRepoContract);
