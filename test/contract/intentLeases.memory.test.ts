import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeIntentLeasesContract } from './intentLeases.contract';

describeIntentLeasesContract('memory', async () => createMemoryStore());
