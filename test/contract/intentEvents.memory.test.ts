import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeIntentEventsContract } from './intentEvents.contract';

describeIntentEventsContract('memory', async () => createMemoryStore());
