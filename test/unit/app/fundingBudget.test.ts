import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { takeFromBudget, type RollingBudget } from '../../../src/app/budgets/rollingWindow';
import { fundDemoWallet, FUNDING_LIMIT } from '../../../src/app/funding/fundDemoWallet';
import { createReadCaches } from '../../../src/app/caches';
import type { ChainPort } from '../../../src/ports/chain';
import type { Principal } from '../../../src/app/accounts/principal';
import type { Wallet } from '../../../src/domain/types';

const HOUR = 3600_000;
const budget: RollingBudget = { key: 'fund:wallet:w', limit: 10, windowMs: 24 * HOUR, bucketMs: HOUR };

describe('rolling 24 h budget', () => {
  test('error: 10 fundings at 23:30 and 10 more at 00:30 (across midnight) are not allowed: the 11th within 24 h is refused', async () => {
    // The store's clock follows the simulated time: counters expire by it, not by today's date.
    const evening = Date.parse('2026-11-23T23:30:00Z');
    let now = evening;
    const store = createMemoryStore({ now: () => new Date(now) });
    for (let i = 0; i < 10; i++) expect((await takeFromBudget(store.usage, budget, 1, evening)).ok).toBe(true);
    now = evening + HOUR;
    const after = await takeFromBudget(store.usage, budget, 1, now); // 00:30 the next day
    expect(after).toMatchObject({ ok: false, used: 10 });
    // Retry-After points at when the 23:00 bucket leaves the window (≈ 24.5 h after 23:30's first use, at most 25 h).
    expect((after as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(22 * 3600);
    expect((after as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(25 * 3600);
  });

  test('behavior: once the window has passed, the budget is available again; a refusal takes nothing', async () => {
    const t0 = Date.parse('2026-11-23T10:10:00Z');
    let now = t0;
    const store = createMemoryStore({ now: () => new Date(now) });
    for (let i = 0; i < 10; i++) await takeFromBudget(store.usage, budget, 1, t0);
    now = t0 + 24 * HOUR;
    expect((await takeFromBudget(store.usage, budget, 1, now)).ok).toBe(false); // still inside the counted span
    now = t0 + 25 * HOUR;
    expect((await takeFromBudget(store.usage, budget, 1, now)).ok).toBe(true);
  });
});

describe('demo funding budgets', () => {
  test('error: the 51st funding of one account in 24 h (across 6 wallets) is 429 FUNDING_LIMIT_EXCEEDED with details.scope "account"; the wallet budgets are untouched by it', async () => {
    // One pinned instant for every clock involved: the store's rolling counters expire by its clock.
    const now = new Date('2026-11-24T12:00:00Z');
    const store = createMemoryStore({ now: () => now });
    let sent = 0;
    const chains = {
      chains: ['arbitrum-sepolia'],
      send: async () => ({ txHash: `0x${(++sent).toString(16).padStart(64, '0')}` }),
    } as unknown as ChainPort;
    const principal = { account: { id: 'acct_f', plan: 'pro', createdAt: '' }, keyId: 'k', scopes: ['read', 'write'], via: 'apiKey' } as Principal;
    const wallets: Wallet[] = [];
    for (let i = 0; i < 6; i++) {
      const w = {
        id: `svc_wallet_${i}`,
        accountId: 'acct_f',
        userId: `u${i}`,
        address: '0x' + `${i}`.repeat(40),
        evmAddress: '0x' + `${i}`.repeat(40),
        chainType: 'ethereum',
        chains: ['arbitrum-sepolia'],
        createdAt: '',
      } as Wallet;
      await store.wallets.insert(w);
      wallets.push(w);
    }
    const deps = { store, chains, caches: createReadCaches(), clock: { now: () => now } };
    const fund = (w: Wallet) => fundDemoWallet(deps, principal, { walletId: w.id });
    for (let i = 0; i < 50; i++) await fund(wallets[Math.floor(i / 10)]!);
    await expect(fund(wallets[5]!)).rejects.toMatchObject({ code: 'FUNDING_LIMIT_EXCEEDED', details: { scope: 'account', limit: FUNDING_LIMIT.perAccount } });
    expect(sent).toBe(50);
    await expect(fund(wallets[0]!)).rejects.toMatchObject({ details: { scope: 'wallet', limit: 10 } });
  });
});
