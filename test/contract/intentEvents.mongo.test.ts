import { describeIntentEventsContract } from './intentEvents.contract';
import { describeOnMongo } from './mongoHarness';

describeOnMongo('intent event log contract', describeIntentEventsContract);
