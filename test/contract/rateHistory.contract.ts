import type { Store } from '../../src/ports/store';
import { RATE_HISTORY_RETENTION_MS, type RateSample } from '../../src/domain/rateHistory';

/**
 * The RateHistoryRepo contract of src/ports/store.ts. Every adapter runs this
 * same suite (rateHistory.memory.test.ts, rateHistory.mongo.test.ts). The
 * markets are a fixed set, so each test keeps to a day of its own (1 to 10
 * days ago, well inside the 30-day retention) and lists only that day.
 */

const DAY = 86_400_000;
const MIN = 60_000;
/** Midnight UTC `n` days before today: test n's own day. */
const dayOf = (n: number) => Math.floor(Date.now() / DAY) * DAY - n * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

function sample(over: Partial<RateSample> & { at: string }): RateSample {
  return { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 4.29, ...over };
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
      expect(Object.keys(listed[0]!).sort()).toEqual(['apy', 'asset', 'at', 'chain', 'protocol']);
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

    test('behavior: a sample older than the 30-day retention is never listed; an empty record is a no-op', async () => {
      const old = Date.now() - RATE_HISTORY_RETENTION_MS - 10 * MIN;
      await store.rateHistory.record([sample({ at: iso(Math.floor(old / MIN) * MIN), chain: 'ethereum-sepolia', asset: 'DAI' })]);
      await store.rateHistory.record([]);
      expect(await store.rateHistory.list({ chain: 'ethereum-sepolia', asset: 'DAI', from: iso(old - DAY), to: iso(old + DAY) })).toEqual([]);
    });
  });
}
