import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createKeyCache } from '../../../src/app/accounts/keyCache';
import { createKeyRevocations } from '../../../src/app/accounts/keyRevocations';
import { checkApiKey } from '../../../src/app/accounts/authenticate';
import { revokeApiKey } from '../../../src/app/accounts/revokeApiKey';
import { createAccount } from '../../../src/app/accounts/createAccount';
import type { ApiKeyRecord } from '../../../src/domain/types';
import type { Store } from '../../../src/ports/store';
import { deferred, type Deferred } from '../engine/deferred';

const clock = { now: () => new Date() };

/** A store whose next findByHash answers what the store held when it was called, but only once `release` resolves. */
function slowLookupStore(): { store: Store; holdNextLookup(): { started: Promise<void>; release(): void } } {
  const store = createMemoryStore();
  let hold: { started: Deferred<void>; gate: Deferred<void> } | null = null;
  const findByHash = store.apiKeys.findByHash.bind(store.apiKeys);
  store.apiKeys.findByHash = async (hash: string): Promise<ApiKeyRecord | null> => {
    const snapshot = await findByHash(hash);
    const h = hold;
    hold = null;
    if (h) {
      h.started.resolve();
      await h.gate.promise;
    }
    return snapshot && { ...snapshot };
  };
  return {
    store,
    holdNextLookup() {
      hold = { started: deferred<void>(), gate: deferred<void>() };
      const h = hold;
      return { started: h.started.promise, release: () => h.gate.resolve() };
    },
  };
}

describe('revocation against the key cache', () => {
  test('error: a lookup that read the key before the revocation does not put it back into the cache', async () => {
    const { store, holdNextLookup } = slowLookupStore();
    const deps = { store, clock, keyCache: createKeyCache(), revocations: createKeyRevocations({ store }) };
    const { apiKey } = await createAccount(deps as never, { plan: 'free' });
    const authorization = `Bearer ${apiKey.key}`;

    const held = holdNextLookup();
    const racing = checkApiKey(deps, authorization);
    await held.started; // the lookup has read the key, still unrevoked
    await revokeApiKey(deps, apiKey.id);
    held.release();
    expect((await racing).ok).toBe(true); // it began before the revocation: it may answer as before…

    // …but it must not have stored what it read: the very next request sees the revocation.
    const next = await checkApiKey(deps, authorization);
    expect(next).toMatchObject({ ok: false, reason: 'revoked' });
    deps.revocations.close();
  });

  test('behavior: a good key is served from the cache once looked up', async () => {
    const store = createMemoryStore();
    const deps = { store, clock, keyCache: createKeyCache(), revocations: createKeyRevocations({ store }) };
    const { apiKey } = await createAccount(deps as never, { plan: 'free' });
    const spy = jest.spyOn(store.apiKeys, 'findByHash');
    await checkApiKey(deps, `Bearer ${apiKey.key}`);
    await checkApiKey(deps, `Bearer ${apiKey.key}`);
    expect(spy).toHaveBeenCalledTimes(1);
    deps.revocations.close();
  });
});

describe('key revocations reaching open streams', () => {
  test('behavior: a revocation on this instance reaches the watchers of that key only, once', async () => {
    const store = createMemoryStore();
    const r = createKeyRevocations({ store });
    const seen: string[] = [];
    r.watch('k1', () => seen.push('a'));
    r.watch('k1', () => seen.push('b'));
    const stop = r.watch('k2', () => seen.push('c'));
    r.revoked('k1');
    r.revoked('k1');
    stop();
    r.revoked('k2');
    expect(seen).toEqual(['a', 'b']);
    r.close();
  });

  test('behavior: a revocation made by another instance (straight in the shared store) is found by the periodic re-read', async () => {
    const store = createMemoryStore();
    const deps = { store, clock, keyCache: createKeyCache(), revocations: createKeyRevocations({ store }) };
    const { apiKey } = await createAccount(deps as never, { plan: 'free' });
    const r = createKeyRevocations({ store }, { recheckMs: 20 });
    const revoked = new Promise<void>((resolve) => r.watch(apiKey.id, resolve));
    await new Promise((res) => setTimeout(res, 60));
    let fired = false;
    void revoked.then(() => (fired = true));
    await new Promise((res) => setImmediate(res));
    expect(fired).toBe(false);
    await store.apiKeys.revoke(apiKey.id, new Date().toISOString()); // the other instance's write
    await revoked;
    r.close();
    deps.revocations.close();
  });
});
