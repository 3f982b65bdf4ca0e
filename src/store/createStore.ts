import { createSystemClock, type Clock } from '../domain/clock';
import { createMemoryStore } from './memory/memoryStore';
import { createMongoStore } from './mongo/mongoStore';
import type { Store } from '../ports/store';
import { translateTransientErrors } from './transientErrors';

/**
 * Picks the adapter: MongoDB when a URI is configured (its transient errors answered as 503s), else the in-memory
 * store; both tell the time by the service's `clock` (MongoDB corrected by its server's offset when it reports one).
 */
export async function createStore(config: { mongodbUri?: string }, clock: Clock = createSystemClock()): Promise<Store> {
  return config.mongodbUri ? translateTransientErrors(await createMongoStore(config.mongodbUri, undefined, { clock })) : createMemoryStore(clock);
}
