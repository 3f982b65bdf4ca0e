import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeWebhooksContract } from './webhooks.contract';

describeWebhooksContract('memory', async () => createMemoryStore());
