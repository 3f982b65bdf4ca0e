import { randomBytes } from 'node:crypto';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createKeyVault } from '../../../src/chain/keyVault';
import { createWallet } from '../../../src/app/wallets/createWallet';
import type { Principal } from '../../../src/app/accounts/principal';

test('behavior: two concurrent creations of one userId: one wallet, and only the winner\'s key is left in the vault', async () => {
  const store = createMemoryStore();
  const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
  const inserted: string[] = [];
  const insertKey = store.walletKeys.insert.bind(store.walletKeys);
  store.walletKeys.insert = async (r) => {
    inserted.push(r.walletId);
    return insertKey(r);
  };
  const principal = { account: { id: 'acct_race', plan: 'pro', createdAt: new Date().toISOString() }, keyId: 'k', scopes: ['read', 'write'], via: 'apiKey' } as Principal;
  const deps = { store, keyVault, clock: { now: () => new Date() } };
  const results = await Promise.allSettled([
    createWallet(deps, principal, { userId: 'alice', chainType: 'ethereum' } as never),
    createWallet(deps, principal, { userId: 'alice', chainType: 'ethereum' } as never),
  ]);
  const won = results.filter((r) => r.status === 'fulfilled');
  expect(won).toHaveLength(1);
  expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'WALLET_ALREADY_EXISTS' } });
  expect(inserted).toHaveLength(2); // both made a key…
  const winner = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
  for (const id of inserted) expect({ id, kept: (await store.walletKeys.get(id)) !== null }).toEqual({ id, kept: id === winner }); // …only the winner’s stays
});
