import { randomBytes } from 'node:crypto';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createKeyVault } from '../../../src/chain/keyVault';
import { createWallet } from '../../../src/app/wallets/createWallet';
import type { Principal } from '../../../src/app/accounts/principal';
import { walletRecord } from '../engine/intentFixture';

test("behavior: two concurrent creations of one userId: one wallet, and only the winner's key is left in the vault", async () => {
  const store = createMemoryStore();
  const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
  const inserted: string[] = [];
  const insertKey = store.walletKeys.insert.bind(store.walletKeys);
  store.walletKeys.insert = async (r) => {
    inserted.push(r.walletId);
    return insertKey(r);
  };
  const principal = {
    account: { id: 'acct_race', plan: 'pro', createdAt: new Date().toISOString() },
    keyId: 'k',
    scopes: ['read', 'write'],
    via: 'apiKey',
  } as Principal;
  const deps = { store, keyVault, clock: { now: () => new Date() }, environment: 'development' as const };
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

describe("the plan's wallet limit under concurrency (takeWalletSlot)", () => {
  const freePrincipal = (id: string) =>
    ({ account: { id, plan: 'free', createdAt: new Date().toISOString() }, keyId: 'k', scopes: ['read', 'write'], via: 'apiKey' }) as Principal;
  /** `n` wallets put straight into the store (created before the slot counter existed, as far as it knows). */
  async function seedWallets(store: ReturnType<typeof createMemoryStore>, accountId: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await store.wallets.insert({
        ...walletRecord(`svc_wallet_seed${String(i).padStart(4, '0')}`, `0x${(i + 1).toString(16).padStart(40, '0')}`, accountId),
        userId: `seeded-${i}`,
      });
    }
  }
  const setup = () => {
    const store = createMemoryStore();
    const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
    return { store, keyVault, deps: { store, keyVault, clock: { now: () => new Date() }, environment: 'development' as const } };
  };

  test('behavior: a creation that loses a userId race gives its slot back: the limit is still reachable exactly', async () => {
    const { store, deps } = setup();
    const principal = freePrincipal('acct_slot_race');
    await seedWallets(store, principal.account.id, 98);
    const racing = await Promise.allSettled([0, 1].map(() => createWallet(deps, principal, { userId: 'alice', chainType: 'ethereum' } as never)));
    expect(racing.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // the loser's slot came back: one more fits, and then none
    await expect(createWallet(deps, principal, { userId: 'bob', chainType: 'ethereum' } as never)).resolves.toMatchObject({ userId: 'bob' });
    await expect(createWallet(deps, principal, { userId: 'carol', chainType: 'ethereum' } as never)).rejects.toMatchObject({ code: 'WALLET_LIMIT_EXCEEDED' });
    expect(await store.wallets.countByAccount(principal.account.id)).toBe(100);
  });

  test('behavior: a vault that fails gives the slot back (the creation is refused 5xx, the next one still fits)', async () => {
    const { store, keyVault, deps } = setup();
    const principal = freePrincipal('acct_slot_vault');
    await seedWallets(store, principal.account.id, 99);
    const failing = jest.spyOn(keyVault, 'createKey').mockRejectedValueOnce(new Error('vault down'));
    await expect(createWallet(deps, principal, { userId: 'dave', chainType: 'ethereum' } as never)).rejects.toThrow('vault down');
    failing.mockRestore();
    await expect(createWallet(deps, principal, { userId: 'dave', chainType: 'ethereum' } as never)).resolves.toMatchObject({ userId: 'dave' });
    expect(await store.wallets.countByAccount(principal.account.id)).toBe(100);
  });
});
