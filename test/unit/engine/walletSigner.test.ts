import type { LocalAccount } from 'viem/accounts';
import { walletSigner } from '../../../src/engine/walletSigner';
import { createHarness, usdc, type Harness } from './engineHarness';
import { flush } from './deferred';
import { testKeyVault } from './fakeChain';

/** The test vault, counting its signer() calls per wallet. */
function countingVault(): { signer(walletId: string): Promise<LocalAccount>; calls: Map<string, number> } {
  const inner = testKeyVault();
  const calls = new Map<string, number>();
  return {
    calls,
    signer(walletId) {
      calls.set(walletId, (calls.get(walletId) ?? 0) + 1);
      return inner.signer(walletId);
    },
  };
}

describe('walletSigner', () => {
  test('behavior: asks the vault once until dropped, then once again', async () => {
    const vault = countingVault();
    const keys = walletSigner(vault, 'w1');
    expect(keys.held()).toBe(false);
    const a = await keys.signer('w1');
    const b = await keys.signer('w1');
    expect(a).toBe(b);
    expect(vault.calls.get('w1')).toBe(1);
    expect(keys.held()).toBe(true);
    keys.drop();
    expect(keys.held()).toBe(false);
    await keys.signer('w1');
    expect(vault.calls.get('w1')).toBe(2);
  });

  test('behavior: a failed vault call is not kept; the next signature asks again', async () => {
    let fail = true;
    const vault = {
      signer: async (): Promise<LocalAccount> => {
        if (fail) throw new Error('vault down');
        return testKeyVault().signer('w1');
      },
    };
    const keys = walletSigner(vault, 'w1');
    await expect(keys.signer('w1')).rejects.toThrow('vault down');
    await Promise.resolve();
    expect(keys.held()).toBe(false);
    fail = false;
    await expect(keys.signer('w1')).resolves.toBeDefined();
  });

  test("behavior: another wallet's signer is asked of the vault and never held", async () => {
    const vault = countingVault();
    const keys = walletSigner(vault, 'w1');
    await keys.signer('w2');
    await keys.signer('w2');
    expect(vault.calls.get('w2')).toBe(2);
    expect(keys.held()).toBe(false);
  });
});

describe("engine: the wallet's signer lives with its wallet actor", () => {
  let h: Harness;
  let vault: ReturnType<typeof countingVault>;

  afterEach(async () => {
    await h.engine.stop();
  });

  test("behavior: a wallet's intents one after another ask the vault once while its actor is awake", async () => {
    vault = countingVault();
    h = createHarness({ engine: { keyVault: vault } });
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    const intents = await Promise.all([h.submit(w.id, { amount: '10' }), h.submit(w.id, { amount: '10' }), h.submit(w.id, { amount: '10' })]);
    for (const i of intents) expect((await h.settled(i.id)).status).toBe('completed');
    // 3 intents × (approve + supply) signed with one derivation
    expect(h.chain.signed.filter((s) => s.from === w.address)).toHaveLength(6);
    expect(vault.calls.get(w.id)).toBe(1);
  });

  test('behavior: once the wallet actor has idled out the signer is dropped; the next intent asks the vault again', async () => {
    vault = countingVault();
    h = createHarness({ engine: { keyVault: vault, walletIdleMs: 1_000 } });
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    const first = await h.submit(w.id, { amount: '10' });
    expect((await h.settled(first.id)).status).toBe('completed');
    expect(vault.calls.get(w.id)).toBe(1);
    // AutoClock fires the idle timer on a later turn, virtual time moved to it: the actor stops within a few turns
    for (let turn = 0; turn < 20; turn++) await flush();
    const second = await h.submit(w.id, { amount: '10' });
    expect((await h.settled(second.id)).status).toBe('completed');
    expect(vault.calls.get(w.id)).toBe(2);
  });

  test('behavior: intents of different wallets each derive their own signer once', async () => {
    vault = countingVault();
    h = createHarness({ engine: { keyVault: vault } });
    const a = await h.wallet();
    const b = await h.wallet();
    for (const w of [a, b]) h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    const intents = await Promise.all([a, b, a, b].map((w) => h.submit(w.id, { amount: '5' })));
    for (const i of intents) expect((await h.settled(i.id)).status).toBe('completed');
    expect([vault.calls.get(a.id), vault.calls.get(b.id)]).toEqual([1, 1]);
  });
});
