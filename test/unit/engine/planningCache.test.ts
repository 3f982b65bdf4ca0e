import type { Address } from 'viem';
import type { Intent } from '../../../src/domain/intent';
import { createReadCaches, fetchFresh, planningCacheOf } from '../../../src/app/caches';
import type { ReadCaches } from '../../../src/app/deps';
import { askedOf } from '../../../src/app/intents/createIntent';
import { parseCreateIntent } from '../../../src/domain/schemas/intent';
import { planOn, planningRequestOf, readPlanning, type PlanningEffects, type PlanningRequest } from '../../../src/engine/planning';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createHarness, MARKETS, usdc, type Harness } from './engineHarness';
import { FakeChain, testAddress } from './fakeChain';
import { pendingIntent, walletRecord } from './intentFixture';

/**
 * Planning takes the balances a client has just read (the read caches')
 * instead of reading the chains again, unless an intent of the wallet
 * changed since that read began; and before an intent fails for want of
 * funds, the chains have the last word.
 */

/** An engine whose planning may use read caches kept on the harness's clock; counts the chains' holdings reads. */
function cachedHarness(): {
  h: Harness;
  caches: ReadCaches;
  holdingsReads: () => number;
  ratesReads: () => number;
  warm(walletId: string): Promise<void>;
} {
  // the caches read the harness's clock and chain, made after them
  const made: { h?: Harness } = {};
  const caches = createReadCaches({ now: () => made.h!.clock.now().getTime() });
  const h = (made.h = createHarness({ engine: { planningCache: planningCacheOf(caches) } }));
  let reads = 0;
  let rateReads = 0;
  const read = h.chain.holdings.bind(h.chain);
  h.chain.holdings = (...args) => {
    reads++;
    return read(...args);
  };
  const readRates = h.chain.rates.bind(h.chain);
  h.chain.rates = () => {
    rateReads++;
    return readRates();
  };
  return {
    h,
    caches,
    holdingsReads: () => reads,
    ratesReads: () => rateReads,
    async warm(walletId) {
      const wallet = await h.store.wallets.getById(walletId);
      await fetchFresh(caches.holdings, walletId, { chains: h.chain, wallet: wallet! });
    },
  };
}

/**
 * A wallet holding `held` USDC on base-sepolia when a client read its balances; `meanwhile` runs between that read
 * and a lend of `amount`. The settled intent, and how often the chains' holdings were read for it.
 */
async function lendAfterRead(
  held: string,
  amount: string,
  meanwhile?: (h: Harness, w: { id: string; address: Address }) => Promise<void> | void,
): Promise<{ intent: Intent; chainReads: number }> {
  const { h, holdingsReads, warm } = cachedHarness();
  const w = await h.wallet();
  h.chain.fund('base-sepolia', w.address, 'USDC', usdc(held));
  await warm(w.id);
  await meanwhile?.(h, w);
  const before = holdingsReads();
  const intent = await h.settled((await h.submit(w.id, { amount })).id);
  return { intent, chainReads: holdingsReads() - before };
}

describe('planning from the read caches', () => {
  test("behavior: rates the yields' cache holds fresh are planned with, not read again; without them planning reads the chains and puts nothing in the cache", async () => {
    const { h, caches, ratesReads } = cachedHarness();
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    const cold = ratesReads();
    expect(await h.settled((await h.submit(w.id, { amount: '10' })).id)).toMatchObject({ status: 'completed' });
    expect(ratesReads() - cold).toBe(1);
    expect(caches.rates.get('all')).toBeUndefined();

    await fetchFresh(caches.rates, 'all', h.chain);
    const warm = ratesReads();
    expect(await h.settled((await h.submit(w.id, { amount: '10' })).id)).toMatchObject({ status: 'completed' });
    expect(ratesReads() - warm).toBe(0);
  });

  test('behavior: a lend right after a balance read plans from that read: no holdings read of the chains, and it completes', async () => {
    const { intent, chainReads } = await lendAfterRead('100', '50');
    expect(intent).toMatchObject({ status: 'completed', amount: '50' });
    expect(chainReads).toBe(0);
  });

  test('behavior: an intent of the wallet changed since the read began (on any instance) → planning reads the chains', async () => {
    const { intent, chainReads } = await lendAfterRead('100', '50', async (h, w) => {
      // another instance's intent of this wallet, recorded after the read: its funds may have moved
      const now = h.clock.now().toISOString();
      await h.store.intents.insert(pendingIntent({ id: 'intent_other001', walletId: w.id, status: 'completed', createdAt: now, updatedAt: now }));
    });
    expect(intent).toMatchObject({ status: 'completed' });
    expect(chainReads).toBeGreaterThanOrEqual(1);
  });

  test('behavior: funds that arrived after the read (the kept balance falls short) → the chains are read before failing, and the lend completes', async () => {
    const { intent, chainReads } = await lendAfterRead('10', '50', (h, w) => h.chain.fund('base-sepolia', w.address, 'USDC', usdc('90')));
    expect(intent).toMatchObject({ status: 'completed', amount: '50' });
    expect(chainReads).toBe(1);
  });

  test('error: a lend short of funds with nothing kept still fails INSUFFICIENT_FUNDS, after one read of the chains', async () => {
    const { intent, chainReads } = await lendAfterRead('10', '50');
    expect(intent).toMatchObject({ status: 'failed', error: { code: 'INSUFFICIENT_FUNDS' } });
    expect(chainReads).toBe(1);
  });
});

describe('kept holdings and reservations', () => {
  const WALLET = 'svc_wallet_kept0001';
  const lend = (amount: string): PlanningRequest =>
    planningRequestOf({ walletId: WALLET, ...askedOf(parseCreateIntent({ walletId: WALLET, action: 'lend', amount })) });

  /**
   * 100 USDC kept from a read made while another instance's lend of 60 was executing; that lend finishes (supplied,
   * recorded completed) right after planning has read the reservations, before it asks the store what changed.
   */
  test("error: another instance's intent finishing between the reservations read and the change check → its funds are not planned twice", async () => {
    let t = Date.UTC(2026, 0, 1);
    const store = createMemoryStore({ now: () => new Date(t) });
    const chain = new FakeChain({ rates: MARKETS, feeBps: 5 });
    const address = testAddress(WALLET);
    await store.wallets.insert(walletRecord(WALLET, address, 'acct_0001'));
    chain.fund('base-sepolia', address, 'USDC', usdc('100'));
    const lending = pendingIntent({
      id: 'intent_lend0002',
      walletId: WALLET,
      status: 'executing',
      version: 2,
      amount: '60',
      requestedAmount: '60',
      createdAt: new Date(t - 60_000).toISOString(),
      updatedAt: new Date(t - 60_000).toISOString(),
      executionPlan: {
        strategy: 'no-bridge',
        reasoning: 'test',
        steps: [{ index: 0, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '60' }],
      },
    });
    await store.intents.insert(lending);
    const caches = createReadCaches({ now: () => t });
    const wallet = await store.wallets.getById(WALLET);
    await fetchFresh(caches.holdings, WALLET, { chains: chain, wallet: wallet! });
    t += 5_000;
    const finish = async (): Promise<void> => {
      chain.fund('base-sepolia', address, 'USDC', -usdc('60'));
      chain.supplyPosition('base-sepolia', address, 'aave-v3', 'USDC', usdc('60'));
      await store.intents.update({ ...lending, status: 'completed', version: 3, updatedAt: new Date(t).toISOString() }, 2);
    };
    const intents: PlanningEffects['intents'] = {
      async listByWallet(walletId, query) {
        const answer = await store.intents.listByWallet(walletId, query);
        if (query.status === 'executing' && answer.length > 0) await finish();
        return answer;
      },
    };
    const fx: PlanningEffects = {
      chains: chain,
      wallets: store.wallets,
      intents,
      signal: new AbortController().signal,
      cache: { reads: planningCacheOf(caches), intentId: 'intent_self0001' },
    };
    const read = await readPlanning(lend('50'), fx);
    if (!read.ok) throw read.error;
    expect(read.snapshot.fromCache).toBeUndefined();
    expect(planOn(lend('50'), read.snapshot)).toMatchObject({ ok: false, error: { code: 'INSUFFICIENT_FUNDS' } });
  });
});
