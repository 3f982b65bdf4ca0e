import { createMemoryStore } from './memory/memoryStore';
import { createMongoStore } from './mongo/mongoStore';
import type { Store } from './port';

/** Picks the adapter: MongoDB when a URI is configured, else the in-memory store. */
export async function createStore(config: { mongodbUri?: string }): Promise<Store> {
  return config.mongodbUri ? createMongoStore(config.mongodbUri) : createMemoryStore();
}
