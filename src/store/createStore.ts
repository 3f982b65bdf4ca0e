import { createMemoryStore } from './memory/memoryStore';
import { createMongoStore } from './mongo/mongoStore';
import type { Store } from '../ports/store';
import { translateTransientErrors } from './transientErrors';

/** Picks the adapter: MongoDB when a URI is configured (its transient errors answered as 503s), else the in-memory store. */
export async function createStore(config: { mongodbUri?: string }): Promise<Store> {
  return config.mongodbUri ? translateTransientErrors(await createMongoStore(config.mongodbUri)) : createMemoryStore();
}
