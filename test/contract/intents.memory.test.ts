import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeIntentRepoContract } from './intents.contract';

describeIntentRepoContract('memory', async () => createMemoryStore());
