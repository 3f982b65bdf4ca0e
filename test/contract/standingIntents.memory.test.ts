import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeStandingIntentsContract } from './standingIntents.contract';

describeStandingIntentsContract('memory', async () => createMemoryStore());
