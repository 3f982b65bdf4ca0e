import { MongoNetworkError, MongoServerError } from 'mongodb';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { isTransientStoreError, storeUnavailable, translateTransientErrors } from '../../../src/store/transientErrors';
import type { ServiceError } from '../../../src/domain/errors/base';
import { errorHeaders, errorStatus } from '../../../src/http/errorStatus';
import { createHarness, usdc } from '../engine/engineHarness';

describe('transient database errors', () => {
  test('behavior: network, election and no-primary errors are transient; a duplicate key or a bad query is not', () => {
    expect(isTransientStoreError(new MongoNetworkError('connection reset'))).toBe(true);
    expect(isTransientStoreError(Object.assign(new MongoServerError({ message: 'not primary', code: 10107 }), {}))).toBe(true);
    expect(isTransientStoreError(new MongoServerError({ message: 'stepped down', code: 189 }))).toBe(true);
    expect(isTransientStoreError(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 }))).toBe(false);
    expect(isTransientStoreError(new MongoServerError({ message: 'bad query', code: 2 }))).toBe(false);
    expect(isTransientStoreError(new TypeError('x'))).toBe(false);
  });

  test('error: the translated store throws 503 SERVICE_UNAVAILABLE (with Retry-After) for transient errors and passes others through', async () => {
    const raw = createMemoryStore();
    const store = translateTransientErrors(raw);
    raw.usage.increment = async () => {
      throw new MongoNetworkError('connection reset');
    };
    const refused = await store.usage.increment('k', 1, new Date()).catch((e: ServiceError) => e);
    expect({
      code: (refused as ServiceError).code,
      status: errorStatus(refused as ServiceError),
      headers: errorHeaders(refused as ServiceError),
    }).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      headers: { 'Retry-After': '2' },
    });
    raw.accounts.get = async () => {
      throw new MongoServerError({ message: 'bad query', code: 2 });
    };
    await expect(store.accounts.get('a')).rejects.toBeInstanceOf(MongoServerError);
    expect(store.kind).toBe('memory');
    expect(store.usage).toBe(store.usage); // one wrapper per repository
  });

  test('behavior: the engine waits out a store that is unavailable while planning (nothing signed) instead of failing the intent', async () => {
    const h = createHarness();
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const update = h.store.intents.update.bind(h.store.intents);
    let refused = 0;
    h.store.intents.update = async (intent, expected) => {
      if (intent.status === 'planning' && refused < 2) {
        refused++;
        throw storeUnavailable(new MongoNetworkError('no primary'));
      }
      return update(intent, expected);
    };
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(refused).toBe(2);
    expect(done.status).toBe('completed');
    await h.engine.stop();
  });
});
