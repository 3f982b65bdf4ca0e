import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeIntentChangesContract } from './intentChanges.contract';

describeIntentChangesContract('memory', 'memory', async () => createMemoryStore());
