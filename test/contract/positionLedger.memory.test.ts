import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describePositionLedgerContract } from './positionLedger.contract';

describePositionLedgerContract('memory', async () => createMemoryStore());
