import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createKeyCache } from '../../../src/app/accounts/keyCache';
import { checkApiKey } from '../../../src/app/accounts/authenticate';
import { createAccount } from '../../../src/app/accounts/createAccount';
import { newRequestId } from '../../../src/http/requestId';
import { createLogger } from '../../../src/logger';

const clock = { now: () => new Date() };

test("behavior: a cached key's account is cached with it: warm checks read neither the key nor the account from the store", async () => {
  const store = createMemoryStore();
  const deps = { store, clock, keyCache: createKeyCache(), logger: createLogger('silent') };
  const { apiKey, account } = await createAccount(deps as never, { plan: 'free' });
  const keys = jest.spyOn(store.apiKeys, 'findByHash');
  const accounts = jest.spyOn(store.accounts, 'get');
  for (let i = 0; i < 3; i++) expect(await checkApiKey(deps, `Bearer ${apiKey.key}`)).toMatchObject({ ok: true, account: { id: account.id, plan: 'free' } });
  expect(keys).toHaveBeenCalledTimes(1);
  expect(accounts).toHaveBeenCalledTimes(1);
});

test('behavior: an account not found is not cached (found once it exists), and entries expire after the TTL', async () => {
  const cache = createKeyCache({ ttlMs: 30 });
  const read = jest.fn().mockResolvedValueOnce(null).mockResolvedValue({ id: 'acct_1', plan: 'pro', createdAt: '2030-01-01T00:00:00.000Z' });
  expect(await cache.account('acct_1', read)).toBeNull();
  expect(await cache.account('acct_1', read)).toMatchObject({ plan: 'pro' });
  expect(await cache.account('acct_1', read)).toMatchObject({ plan: 'pro' });
  expect(read).toHaveBeenCalledTimes(2);
  await new Promise((r) => setTimeout(r, 60));
  await cache.account('acct_1', read);
  expect(read).toHaveBeenCalledTimes(3);
});

test('behavior: request ids from the random pool are req_ + 32 hex, and distinct across several refills', () => {
  const ids = Array.from({ length: 2_000 }, () => newRequestId());
  expect(ids.every((id) => /^req_[0-9a-f]{32}$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
});
