import type { Address } from 'viem';
import type { Store } from '../../src/ports/store';
import { RATE_HISTORY_RETENTION_MS, type RateSample } from '../../src/domain/rateHistory';
import type { SampleCosts } from '../../src/domain/standingIntent';

/**
 * The RateHistoryRepo contract of src/ports/store.ts. Every adapter runs this
 * same suite (rateHistory.memory.test.ts, rateHistory.mongo.test.ts). The
 * markets are a fixed set, so each test keeps to a day of its own (1 to 10
 * days ago, well inside the 90-day retention) and lists only that day.
 */

const TOKEN = '0x036CbD53842c5426634e7929541eC2318f3dCF7e' as Address;
const OTHER_TOKEN = '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d' as Address;

const DAY = 86_400_000;
const MIN = 60_000;
/** Midnight UTC `n` days before today: test n's own day. */
const dayOf = (n: number) => Math.floor(Date.now() / DAY) * DAY - n * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

function sample(over: Partial<RateSample> & { at: string }): RateSample {
  return { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: TOKEN, apy: 4.29, ...over };
}

function costs(gwei: number): SampleCosts {
  return {
    gasUsdPerUnit: { 'base-sepolia': gwei * 3e-9, 'arbitrum-sepolia': 1e-8 },
    routeFeeBps: { 'base-sepolia': { 'arbitrum-sepolia': 1.3 }, 'arbitrum-sepolia': { 'base-sepolia': 1 } },
    assetUsd: { USDC: 1, WETH: 3000 },
  };
}

/** Registers the rate history contract for one adapter. */
export function describeRateHistoryContract(name: string, makeStore: () => Promise<Pick<Store, 'rateHistory' | 'close'>>): void {
  describe(`rate history contract: ${name}`, () => {
    let store: Pick<Store, 'rateHistory' | 'close'>;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    test('behavior: record → list round-trips samples, ordered by chain, protocol, asset, then time; from is inclusive, to exclusive', async () => {
      const d = dayOf(1);
      const samples = [
        sample({ at: iso(d + 2 * MIN), apy: 4.5 }),
        sample({ chain: 'arbitrum-sepolia', at: iso(d + MIN), apy: 3.25 }),
        sample({ at: iso(d), apy: 4.25 }),
        sample({ protocol: 'compound-v3', chain: 'ethereum-sepolia', at: iso(d + MIN), apy: 2 }),
        sample({ at: iso(d + 3 * MIN), apy: 9 }), // at `to`: left out
      ];
      await store.rateHistory.record(samples);
      const listed = await store.rateHistory.list({ from: iso(d), to: iso(d + 3 * MIN) });
      expect(listed).toEqual([
        sample({ chain: 'arbitrum-sepolia', at: iso(d + MIN), apy: 3.25 }),
        sample({ at: iso(d), apy: 4.25 }),
        sample({ at: iso(d + 2 * MIN), apy: 4.5 }),
        sample({ protocol: 'compound-v3', chain: 'ethereum-sepolia', at: iso(d + MIN), apy: 2 }),
      ]);
      expect(Object.keys(listed[0]!).sort()).toEqual(['apy', 'asset', 'at', 'chain', 'protocol', 'token']);
      expect(await store.rateHistory.list({ from: iso(d + MIN), to: iso(d + 2 * MIN) })).toHaveLength(2);
    });

    test('behavior: chain, protocol and asset filter independently and together', async () => {
      const d = dayOf(2);
      await store.rateHistory.record([
        sample({ at: iso(d) }),
        sample({ at: iso(d), asset: 'USDT' }),
        sample({ at: iso(d), chain: 'arbitrum-sepolia' }),
        sample({ at: iso(d), chain: 'arbitrum-sepolia', protocol: 'compound-v3' }),
      ]);
      const window = { from: iso(d), to: iso(d + MIN) };
      const keyOf = (s: RateSample) => `${s.chain}/${s.protocol}/${s.asset}`;
      expect((await store.rateHistory.list({ ...window, chain: 'arbitrum-sepolia' })).map(keyOf)).toEqual([
        'arbitrum-sepolia/aave-v3/USDC',
        'arbitrum-sepolia/compound-v3/USDC',
      ]);
      expect((await store.rateHistory.list({ ...window, protocol: 'compound-v3' })).map(keyOf)).toEqual(['arbitrum-sepolia/compound-v3/USDC']);
      expect((await store.rateHistory.list({ ...window, asset: 'USDT' })).map(keyOf)).toEqual(['base-sepolia/aave-v3/USDT']);
      expect((await store.rateHistory.list({ ...window, chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC' })).map(keyOf)).toEqual([
        'base-sepolia/aave-v3/USDC',
      ]);
      expect(await store.rateHistory.list({ ...window, chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'DAI' })).toEqual([]);
    });

    test('behavior: one sample per market and minute — recording it again (or from several instances at once) replaces its APY, never adds one', async () => {
      const d = dayOf(3);
      await store.rateHistory.record([sample({ at: iso(d), apy: 1 })]);
      await store.rateHistory.record([sample({ at: iso(d), apy: 2 })]);
      await Promise.all([3, 3, 3, 3, 3].map((apy) => store.rateHistory.record([sample({ at: iso(d), apy }), sample({ at: iso(d + MIN), apy })])));
      const listed = await store.rateHistory.list({ from: iso(d), to: iso(d + DAY) });
      expect(listed).toEqual([sample({ at: iso(d), apy: 3 }), sample({ at: iso(d + MIN), apy: 3 })]);
    });

    test('behavior: the token is part of the key — two tokens of one market and minute are two samples, each replaced only by its own; listed by token', async () => {
      const d = dayOf(4);
      await store.rateHistory.record([sample({ at: iso(d), apy: 1 }), sample({ at: iso(d), apy: 2, token: OTHER_TOKEN })]);
      await store.rateHistory.record([sample({ at: iso(d), apy: 3, token: OTHER_TOKEN })]);
      const listed = await store.rateHistory.list({ from: iso(d), to: iso(d + MIN) });
      const byToken = [TOKEN, OTHER_TOKEN].sort();
      expect(listed.map((s) => [s.token, s.apy])).toEqual(byToken.map((t) => [t, t === TOKEN ? 1 : 3]));
    });

    test('behavior: samples recorded without a token stay readable, without one, as a market of their own (listed before the tokened ones)', async () => {
      const d = dayOf(5);
      const { token: _ignored, ...untokened } = sample({ at: iso(d), apy: 1 });
      await store.rateHistory.record([untokened, sample({ at: iso(d), apy: 2 })]);
      await store.rateHistory.record([{ ...untokened, apy: 1.5 }]);
      const listed = await store.rateHistory.list({ from: iso(d), to: iso(d + MIN) });
      expect(listed).toEqual([{ ...untokened, apy: 1.5 }, sample({ at: iso(d), apy: 2 })]);
      expect('token' in listed[0]!).toBe(false);
    });

    test('behavior: costs — one record per sample minute (recording it again replaces it), listed in [from, to) by time', async () => {
      const d = dayOf(6);
      await store.rateHistory.recordCosts(iso(d + MIN), costs(2));
      await store.rateHistory.recordCosts(iso(d), costs(1));
      await store.rateHistory.recordCosts(iso(d + MIN), costs(3));
      await store.rateHistory.recordCosts(iso(d + 2 * MIN), costs(4)); // at `to`: left out
      expect(await store.rateHistory.listCosts(iso(d), iso(d + 2 * MIN))).toEqual([
        { at: iso(d), costs: costs(1) },
        { at: iso(d + MIN), costs: costs(3) },
      ]);
      const { assetUsd: _none, ...withoutPrices } = costs(5);
      await store.rateHistory.recordCosts(iso(d + 3 * MIN), withoutPrices);
      expect(await store.rateHistory.listCosts(iso(d + 3 * MIN), iso(d + 4 * MIN))).toEqual([{ at: iso(d + 3 * MIN), costs: withoutPrices }]);
    });

    test('behavior: a sample or costs older than the 90-day retention are never listed; an empty record is a no-op', async () => {
      const old = Date.now() - RATE_HISTORY_RETENTION_MS - 10 * MIN;
      await store.rateHistory.record([sample({ at: iso(Math.floor(old / MIN) * MIN), chain: 'ethereum-sepolia', asset: 'DAI' })]);
      await store.rateHistory.record([]);
      expect(await store.rateHistory.list({ chain: 'ethereum-sepolia', asset: 'DAI', from: iso(old - DAY), to: iso(old + DAY) })).toEqual([]);
      await store.rateHistory.recordCosts(iso(Math.floor(old / MIN) * MIN), costs(1));
      expect(await store.rateHistory.listCosts(iso(old - DAY), iso(old + DAY))).toEqual([]);
    });
  });
}
