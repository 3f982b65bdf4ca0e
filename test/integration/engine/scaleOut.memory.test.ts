import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { describeScaleOut } from './scaleOut.suite';

// One process, one memory store: every engine is handed the same store, as instances share one database.
const store = createMemoryStore();
describeScaleOut('memory', { shared: async () => store, instance: async () => store, close: () => store.close() });
