import { createMemoryRateHistory } from '../../../src/store/memory/memoryRateHistory';
import { createRateSampler, type SampleTaken } from '../../../src/app/yields/rateSampler';
import { readSampleCosts } from '../../../src/app/yields/sampleCosts';
import type { SampleCosts } from '../../../src/domain/standingIntent';
import { bucketize, defaultBucket, getYieldHistory } from '../../../src/app/yields/getYieldHistory';
import type { Principal } from '../../../src/app/accounts/principal';
import type { MarketRate } from '../../../src/ports/chain';
import type { RateSample } from '../../../src/domain/rateHistory';
import { ServiceError } from '../../../src/domain/errors/base';
import type { Store } from '../../../src/ports/store';
import { doubleToken } from '../../helpers/chainDoubles';

const principal = { account: { id: 'acct_h', plan: 'pro', createdAt: '' }, keyId: 'k', scopes: ['read'], via: 'apiKey' } as Principal;
const NOW = Date.UTC(2026, 0, 31, 12, 0, 30);

/** A manual clock: timers run when the test says so. */
function manualClock(start: number) {
  let now = start;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  return {
    now: () => new Date(now),
    setTimeout(fn: () => void, ms: number) {
      timers.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout(id: number) {
      timers.delete(id);
    },
    pending: () => timers.size,
    /** Moves time on by `ms` and runs the timers due. */
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at <= now) {
          timers.delete(id);
          t.fn();
        }
      }
    },
  };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('rate sampler', () => {
  test('behavior: samples every market at start and on each interval under its sample minute; the latest APY of a minute wins; stop() ends it', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    let apy = 4.29;
    const rates = (): MarketRate[] => [
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy },
      { chain: 'arbitrum-sepolia', protocol: 'compound-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 3 },
    ];
    const sampler = createRateSampler({ readRates: async () => rates(), rateHistory: history, clock, intervalMs: 20_000 });
    sampler.start();
    await flush();
    const window = { from: '2026-01-31T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' };
    expect((await history.list(window)).map((s) => `${s.chain} ${s.at} ${s.apy}`)).toEqual([
      'arbitrum-sepolia 2026-01-31T12:00:00.000Z 3',
      'base-sepolia 2026-01-31T12:00:00.000Z 4.29',
    ]);
    apy = 6.5;
    clock.advance(20_000); // 12:00:50, same minute: replaced
    await flush();
    clock.advance(20_000); // 12:01:10, next minute: added
    await flush();
    const base = (await history.list({ ...window, chain: 'base-sepolia' })).map((s) => [s.at, s.apy]);
    expect(base).toEqual([
      ['2026-01-31T12:00:00.000Z', 6.5],
      ['2026-01-31T12:01:00.000Z', 6.5],
    ]);
    await sampler.stop();
    expect(clock.pending()).toBe(0);
    clock.advance(60_000);
    await flush();
    expect(await history.list({ ...window, chain: 'base-sepolia' })).toHaveLength(2);
  });

  test('error: a failed chain read records nothing, is reported, and the next interval samples again', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    const errors: unknown[] = [];
    let fail = true;
    const sampler = createRateSampler({
      readRates: async () => {
        if (fail) throw new Error('chain down');
        return [{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 5 }];
      },
      rateHistory: history,
      clock,
      intervalMs: 60_000,
      onError: (e) => errors.push(e),
    });
    sampler.start();
    await flush();
    expect(errors).toHaveLength(1);
    expect(await history.list({ from: '2026-01-31T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' })).toEqual([]);
    fail = false;
    clock.advance(60_000);
    await flush();
    expect(await history.list({ from: '2026-01-31T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' })).toHaveLength(1);
    await sampler.stop();
  });
});

describe('rate sampler: tokens, costs and the onSample hook', () => {
  const COSTS: SampleCosts = { gasUsdPerUnit: { 'base-sepolia': 1e-8 }, routeFeeBps: { 'base-sepolia': { 'arbitrum-sepolia': 1.3 } }, assetUsd: { USDC: 1 } };
  const rates = async (): Promise<MarketRate[]> => [{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 4.29 }];
  const window = { from: '2026-01-31T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' };

  test('behavior: each sample names its market token; the costs read with it are recorded under the same minute and handed to onSample with the samples', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    const seen: SampleTaken[] = [];
    const sampler = createRateSampler({ readRates: rates, readCosts: async () => COSTS, rateHistory: history, clock, onSample: (s) => void seen.push(s) });
    expect(await sampler.sampleNow()).toBe(1);
    await flush();
    const samples = await history.list(window);
    expect(samples).toEqual([
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), at: '2026-01-31T12:00:00.000Z', apy: 4.29 },
    ]);
    expect(await history.listCosts(window.from, window.to)).toEqual([{ at: '2026-01-31T12:00:00.000Z', costs: COSTS }]);
    expect(seen).toEqual([{ at: '2026-01-31T12:00:00.000Z', samples, costs: COSTS }]);
  });

  test('error: costs that cannot be read are reported and do not hold the APYs back: the minute has no costs, onSample gets none priced', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    const errors: unknown[] = [];
    const seen: SampleTaken[] = [];
    const sampler = createRateSampler({
      readRates: rates,
      readCosts: async () => {
        throw new Error('gas quote down');
      },
      rateHistory: history,
      clock,
      onError: (e) => errors.push(e),
      onSample: (s) => void seen.push(s),
    });
    expect(await sampler.sampleNow()).toBe(1);
    await flush();
    expect(errors).toHaveLength(1);
    expect(await history.list(window)).toHaveLength(1);
    expect(await history.listCosts(window.from, window.to)).toEqual([]);
    expect(seen.map((s) => s.costs)).toEqual([{ gasUsdPerUnit: {}, routeFeeBps: {} }]);
  });

  test('error: an onSample that throws or rejects is reported; the sample stands, and a slow one does not hold the next sample back', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    const errors: unknown[] = [];
    const failures = [
      () => {
        throw new Error('decider down');
      },
      async () => {
        throw new Error('decider rejected');
      },
      () => new Promise<void>(() => undefined), // never settles
    ];
    for (const onSample of failures) {
      const sampler = createRateSampler({ readRates: rates, rateHistory: history, clock, onError: (e) => errors.push(e), onSample });
      expect(await sampler.sampleNow()).toBe(1);
    }
    await flush();
    expect(errors.map((e) => (e as Error).message)).toEqual(['decider down', 'decider rejected']);
    expect(await history.list(window)).toHaveLength(1);
  });
});

describe('rate sampler: a sample on demand', () => {
  const rates = async (): Promise<MarketRate[]> => [{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 4.29 }];

  test('behavior: sampleNow(at) files the rates read now under the minute of `at` (costs too), and tells onSample that minute', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    const seen: string[] = [];
    const costs: SampleCosts = { gasUsdPerUnit: { 'base-sepolia': 1e-8 }, routeFeeBps: {} };
    const sampler = createRateSampler({ readRates: rates, readCosts: async () => costs, rateHistory: history, clock, onSample: (s) => void seen.push(s.at) });
    expect(await sampler.sampleNow(new Date('2026-01-31T09:15:42.500Z'))).toBe(1);
    await flush();
    const window = { from: '2026-01-31T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' };
    expect((await history.list(window)).map((s) => s.at)).toEqual(['2026-01-31T09:15:00.000Z']);
    expect(await history.listCosts(window.from, window.to)).toEqual([{ at: '2026-01-31T09:15:00.000Z', costs }]);
    expect(seen).toEqual(['2026-01-31T09:15:00.000Z']);
  });

  test('behavior: sampleAndSettle resolves only once onSample has finished with the sample, and answers the sample', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    let finish!: () => void;
    const decided: string[] = [];
    const sampler = createRateSampler({
      readRates: rates,
      rateHistory: history,
      clock,
      onSample: (s) =>
        new Promise<void>((resolve) => {
          finish = () => {
            decided.push(s.at);
            resolve();
          };
        }),
    });
    let settled = false;
    const taking = sampler.sampleAndSettle().then((t) => {
      settled = true;
      return t;
    });
    for (let i = 0; i < 5; i++) await flush();
    expect(settled).toBe(false);
    finish();
    const taken = await taking;
    expect(decided).toEqual(['2026-01-31T12:00:00.000Z']);
    expect(taken).toEqual({ at: '2026-01-31T12:00:00.000Z', samples: [expect.objectContaining({ apy: 4.29 })], costs: { gasUsdPerUnit: {}, routeFeeBps: {} } });
  });

  test('error: sampleAndSettle reports a rejecting onSample to onError and still answers the sample (it is stored)', async () => {
    const clock = manualClock(NOW);
    const history = createMemoryRateHistory(clock);
    const errors: unknown[] = [];
    const sampler = createRateSampler({
      readRates: rates,
      rateHistory: history,
      clock,
      onError: (e) => errors.push(e),
      onSample: async () => {
        throw new Error('decider rejected');
      },
    });
    expect((await sampler.sampleAndSettle()).samples).toHaveLength(1);
    expect(errors.map((e) => (e as Error).message)).toEqual(['decider rejected']);
  });
});

describe('sample costs', () => {
  test('behavior: gas USD per unit is the gas price at the chain ETH/USD, the route fee is the fast tier, prices per asset; a chain or price that fails is left out', async () => {
    const port = {
      chains: ['base-sepolia', 'arbitrum-sepolia'] as const,
      gasQuote: async (chain: string) => {
        if (chain === 'arbitrum-sepolia') throw new Error('down');
        return { chain: 'base-sepolia' as const, gasPriceWei: 2_000_000_000n, ethUsd: 3_000 };
      },
      routeFees: async () => ({ 'base-sepolia': { 'arbitrum-sepolia': { fast: 1.3, standard: 0 } } }),
      priceUsd: async (asset: string) => {
        if (asset === 'DAI') throw new Error('no feed');
        return asset === 'WETH' ? 3_000 : 1;
      },
    };
    expect(await readSampleCosts(port)).toEqual({
      gasUsdPerUnit: { 'base-sepolia': 2e-9 * 3_000 },
      routeFeeBps: { 'base-sepolia': { 'arbitrum-sepolia': 1.3 } },
      assetUsd: { USDC: 1, USDT: 1, WETH: 3_000 },
    });
  });
});

describe('buckets', () => {
  const s = (at: string, apy: number, over: Partial<RateSample> = {}): RateSample => ({
    chain: 'base-sepolia',
    protocol: 'aave-v3',
    asset: 'USDC',
    at,
    apy,
    ...over,
  });

  test('behavior: min, max, mean and count per bucket, buckets on UTC multiples of the width, one series per market, empty buckets left out', () => {
    const series = bucketize(
      [
        s('2026-01-31T11:00:00.000Z', 4, { chain: 'arbitrum-sepolia' }),
        s('2026-01-31T11:58:00.000Z', 4),
        s('2026-01-31T11:59:00.000Z', 5),
        s('2026-01-31T12:00:00.000Z', 6),
        s('2026-01-31T12:03:00.000Z', 7),
        s('2026-01-31T12:59:00.000Z', 1),
        s('2026-01-31T14:10:00.000Z', 2),
      ],
      '1h',
    );
    expect(series.map((x) => x.chain)).toEqual(['arbitrum-sepolia', 'base-sepolia']);
    expect(series[1]!.buckets).toEqual([
      { start: '2026-01-31T11:00:00.000Z', end: '2026-01-31T12:00:00.000Z', min: 4, max: 5, mean: 4.5, samples: 2 },
      { start: '2026-01-31T12:00:00.000Z', end: '2026-01-31T13:00:00.000Z', min: 1, max: 7, mean: 4.6667, samples: 3 },
      { start: '2026-01-31T14:00:00.000Z', end: '2026-01-31T15:00:00.000Z', min: 2, max: 2, mean: 2, samples: 1 },
    ]);
  });

  test('behavior: a series per market and token: samples without a token (recorded before samples named it) are a series of their own, without one', () => {
    const token = doubleToken('USDC');
    const series = bucketize(
      [s('2026-01-31T11:00:00.000Z', 4), s('2026-01-31T11:01:00.000Z', 5, { token }), s('2026-01-31T11:02:00.000Z', 6, { token })],
      '1h',
    );
    expect(series.map((x) => [x.token, x.buckets.map((b) => b.samples)])).toEqual([
      [undefined, [1]],
      [token, [2]],
    ]);
    expect('token' in series[0]!).toBe(false);
  });

  test('behavior: the default bucket keeps a window to at most 500 buckets: 1 h → 1m, 24 h → 5m, 7 d → 1h, 30 d → 1d', () => {
    expect([1, 24, 7 * 24, 30 * 24].map((h) => defaultBucket(h * 3_600_000))).toEqual(['1m', '5m', '1h', '1d']);
  });
});

describe('getYieldHistory', () => {
  const store = { rateHistory: createMemoryRateHistory({ now: () => new Date(NOW) }) } as unknown as Store;
  const deps = { store, clock: { now: () => new Date(NOW) }, environment: 'development' as const };

  test('behavior: defaults to the last 24 h in 5-minute buckets', async () => {
    await store.rateHistory.record([{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at: '2026-01-31T11:00:00.000Z', apy: 4.29 }]);
    const h = await getYieldHistory(deps, principal, {});
    expect({ from: h.from, to: h.to, bucket: h.bucket }).toEqual({ from: '2026-01-30T12:00:30.000Z', to: '2026-01-31T12:00:30.000Z', bucket: '5m' });
    expect(h.series).toEqual([
      {
        chain: 'base-sepolia',
        protocol: 'aave-v3',
        asset: 'USDC',
        buckets: [{ start: '2026-01-31T11:00:00.000Z', end: '2026-01-31T11:05:00.000Z', min: 4.29, max: 4.29, mean: 4.29, samples: 1 }],
      },
    ]);
  });

  test.each([
    [
      { chain: 'mars', protocol: 'maker', asset: 'DOGE', bucket: '2m', from: 'yesterday', to: '2026-02-30' },
      ['chain', 'protocol', 'asset', 'from', 'to', 'bucket'],
    ],
    [{ sort: 'asc' }, ['sort']],
    [{ from: '2026-01-31T12:00:00Z', to: '2026-01-31T11:00:00Z' }, ['from']],
    [{ from: '2025-12-01', to: '2026-01-31' }, ['from']],
    [{ from: '2026-01-01', to: '2026-01-31', bucket: '1m' }, ['bucket']],
  ])('error: %j is 400 INVALID_REQUEST naming %j', async (params, paths) => {
    const e = await getYieldHistory(deps, principal, params as Record<string, string>).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).code).toBe('INVALID_REQUEST');
    const issues = (e as ServiceError).details.issues as { path: string }[];
    expect(issues.map((i) => i.path).sort()).toEqual([...paths].sort());
  });
});

describe('getYieldHistory: bounded reads', () => {
  test('behavior: a 30-day window is read two hours at a time (a day for 1d buckets), the event loop running between reads, and answers what one read of the window would', async () => {
    const now = Date.UTC(2026, 0, 31, 12, 0, 30);
    const history = createMemoryRateHistory({ now: () => new Date(now) });
    const markets = [
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC') },
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC') },
      { chain: 'ethereum-sepolia', protocol: 'compound-v3', asset: 'USDC' },
    ] as const;
    const samples: RateSample[] = [];
    for (let m = 0; m < 30 * 1440; m += 7)
      for (const [i, market] of markets.entries()) samples.push({ ...market, at: new Date(now - m * 60_000).toISOString(), apy: 3 + i + (m % 11) / 10 });
    await history.record(samples);
    const spans: number[] = [];
    let loopRan = false;
    let loopRanBetweenReads = true;
    const spied = {
      ...history,
      list: async (q: Parameters<typeof history.list>[0]) => {
        if (spans.length > 0 && !loopRan) loopRanBetweenReads = false;
        loopRan = false;
        setImmediate(() => (loopRan = true));
        spans.push(Date.parse(q.to) - Date.parse(q.from));
        return history.list(q);
      },
    };
    const deps = { store: { rateHistory: spied } as unknown as Store, clock: { now: () => new Date(now) }, environment: 'development' as const };
    const from = new Date(now - 30 * 86_400_000).toISOString();
    const to = new Date(now).toISOString();
    for (const [bucket, reads, longest] of [
      ['1d', 31, 86_400_000],
      ['1h', 30 * 12 + 1, 2 * 3_600_000],
    ] as const) {
      spans.length = 0;
      const h = await getYieldHistory(deps, principal, { from, to, bucket });
      // before: one read of all 30 days; then a day at a time; now two hours at a time (a 1d bucket: a day)
      expect(spans.length).toBe(reads);
      expect(Math.max(...spans)).toBeLessThanOrEqual(longest);
      expect(loopRanBetweenReads).toBe(true);
      expect(h.series).toEqual(bucketize(await history.list({ from, to }), bucket));
    }
  });
});
