import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeStoreContract } from './repositories.contract';

describeStoreContract('memory', async () => createMemoryStore());
