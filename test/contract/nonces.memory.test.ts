import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeNoncesContract } from './nonces.contract';

describeNoncesContract('memory', async () => createMemoryStore());
