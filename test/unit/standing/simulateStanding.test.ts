import { simulateStanding } from '../../../src/app/standing/simulateStanding';
import { MAX_CHART_POINTS } from '../../../src/app/standing/backtestReplay';
import { createMemoryRateHistory } from '../../../src/store/memory/memoryRateHistory';
import type { RateSample } from '../../../src/domain/rateHistory';
import type { SimulateParams } from '../../../src/domain/standingIntent';
import { doubleToken } from '../../helpers/chainDoubles';
import { COSTS } from './decisionFixtures';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const A = { chain: 'base-sepolia', protocol: 'aave-v3' } as const;
const B = { chain: 'arbitrum-sepolia', protocol: 'aave-v3' } as const;

/** A store holding `hours` hourly samples of markets A and B (APYs per hour), and the costs recorded an hour before the first. */
async function history(hours: number, apys: (hour: number) => { a: number; b: number }, opts: { costs?: boolean } = {}) {
  const rateHistory = createMemoryRateHistory({ now: () => new Date(START + hours * HOUR) });
  const samples: RateSample[] = [];
  for (let h = 0; h < hours; h++) {
    const { a, b } = apys(h);
    const at = iso(START + h * HOUR);
    samples.push({ ...A, asset: 'USDC', token: doubleToken('USDC'), at, apy: a }, { ...B, asset: 'USDC', token: doubleToken('USDC'), at, apy: b });
  }
  await rateHistory.record(samples);
  if (opts.costs !== false) await rateHistory.recordCosts(iso(START - HOUR), COSTS);
  return { rateHistory, clock: { now: () => new Date(START + hours * HOUR) } };
}

const params = (hours: number, over: Partial<SimulateParams> = {}): SimulateParams => ({
  asset: 'USDC',
  amount: '100000',
  horizonDays: 30,
  minGainUsd: 1,
  maxMovesPerDay: 2,
  from: iso(START),
  to: iso(START + hours * HOUR),
  ...over,
});

/** USD earned by 100 000 USDC at `apy` percent over `hours`. */
const earned = (apy: number, hours: number) => (100_000 * apy * hours) / 100 / (365 * 24);

describe('simulateStanding', () => {
  const HOURS = 60 * 24;
  const RAISE = 10 * 24;

  test('behavior: a market that overtakes by a margin gets the funds once, at the second sample after it did; the strategy nets more than staying put', async () => {
    const deps = await history(HOURS, (h) => ({ a: 4, b: h < RAISE ? 3 : 6 }));
    const r = await simulateStanding(deps, params(HOURS));
    expect(r.samples).toBe(HOURS);
    expect(r.moves).toHaveLength(1);
    expect(r.moves[0]).toMatchObject({ at: iso(START + (RAISE + 1) * HOUR), from: { ...A, apy: 4 }, to: { ...B, apy: 6 }, amount: '100000' });
    expect(r.moves[0]!.costUsd).toBeGreaterThan(13); // the 1.3 bps fast fee on 100 000 USDC, and gas
    expect(r.firstMarket.market).toEqual(A);
    expect(r.firstMarket.earnedUsd).toBeCloseTo(earned(4, HOURS - 1), 4);
    expect(r.todaysBest.market).toEqual(B);
    expect(r.todaysBest.earnedUsd).toBeCloseTo(earned(3, RAISE) + earned(6, HOURS - 1 - RAISE), 4);
    // A until the hour after the move's sample, B after
    expect(r.strategy.earnedUsd).toBeCloseTo(earned(4, RAISE + 1) + earned(6, HOURS - 2 - RAISE), 4);
    expect(r.strategy.costsUsd).toBe(r.moves[0]!.costUsd);
    expect(r.strategy.netUsd).toBeGreaterThan(r.firstMarket.netUsd);
    expect(r.cumulative.at(-1)).toEqual([iso(START + (HOURS - 1) * HOUR), r.strategy.netUsd, r.firstMarket.netUsd]);
  });

  test('behavior: a spike of one sample moves nothing', async () => {
    const deps = await history(3 * 24, (h) => ({ a: 4, b: h === 30 ? 12 : 3 }));
    const r = await simulateStanding(deps, params(3 * 24));
    expect(r.moves).toEqual([]);
    expect(r.strategy.netUsd).toBe(r.firstMarket.netUsd);
  });

  test('behavior: the chart keeps about MAX_CHART_POINTS points per market, every move and the last sample', async () => {
    const deps = await history(HOURS, (h) => ({ a: 4, b: h < RAISE ? 3 : 6 }));
    const r = await simulateStanding(deps, params(HOURS));
    expect(r.series.map((s) => `${s.chain}/${s.protocol}`)).toEqual(['arbitrum-sepolia/aave-v3', 'base-sepolia/aave-v3']);
    for (const s of r.series) {
      expect(s.points.length).toBeLessThanOrEqual(MAX_CHART_POINTS + 2);
      expect(s.points.length).toBeGreaterThan(MAX_CHART_POINTS / 2);
      expect(s.points.map(([at]) => at)).toEqual(expect.arrayContaining([r.moves[0]!.at, iso(START + (HOURS - 1) * HOUR)]));
    }
    expect(r.cumulative.length).toBeLessThanOrEqual(MAX_CHART_POINTS + 2);
    expect(r.cumulative.map(([at]) => at)).toContain(r.moves[0]!.at);
  });

  test('behavior: funds start where the question says; moves per rolling day never exceed maxMovesPerDay', async () => {
    // the markets swap places every 3 hours, far apart: every swap pays
    const deps = await history(4 * 24, (h) => (Math.floor(h / 3) % 2 === 0 ? { a: 2, b: 12 } : { a: 12, b: 2 }));
    const r = await simulateStanding(deps, params(4 * 24, { start: B, maxMovesPerDay: 3 }));
    expect(r.firstMarket.market).toEqual(B);
    expect(r.moves.length).toBeGreaterThan(3);
    const times = r.moves.map((m) => Date.parse(m.at));
    for (const t of times) expect(times.filter((u) => u > t - DAY && u <= t).length).toBeLessThanOrEqual(3);
  });

  test('behavior: without any recorded costs no move is priced, so none is made', async () => {
    const deps = await history(3 * 24, (h) => ({ a: 4, b: h < 10 ? 3 : 9 }), { costs: false });
    expect((await simulateStanding(deps, params(3 * 24))).moves).toEqual([]);
  });

  test('behavior: an empty history answers 0 samples, no moves, nothing earned', async () => {
    const deps = await history(0, () => ({ a: 0, b: 0 }));
    const r = await simulateStanding(deps, params(24));
    expect(r).toEqual({
      from: iso(START),
      to: iso(START + DAY),
      samples: 0,
      moves: [],
      strategy: { earnedUsd: 0, costsUsd: 0, netUsd: 0 },
      todaysBest: { earnedUsd: 0, costsUsd: 0, netUsd: 0, market: null },
      firstMarket: { earnedUsd: 0, costsUsd: 0, netUsd: 0, market: null },
      series: [],
      cumulative: [],
    });
  });
});

describe('simulateStanding in slices', () => {
  test('behavior: a replay that pauses after every sample minute lets I/O through and answers exactly what the unsliced replay answers', async () => {
    const HOURS = 6 * 24;
    const deps = await history(HOURS, (h) => (Math.floor(h / 7) % 2 === 0 ? { a: 2 + (h % 5), b: 9 } : { a: 10, b: 3 + (h % 3) }));
    const whole = await simulateStanding({ ...deps, sliceMs: Infinity }, params(HOURS));
    expect(whole.moves.length).toBeGreaterThan(3);

    // the memory store answers without I/O: only the slices' pauses let an immediate run before the answer
    const order: string[] = [];
    setImmediate(() => order.push('io'));
    const sliced = await simulateStanding({ ...deps, sliceMs: 0 }, params(HOURS)).finally(() => order.push('answer'));
    expect(order).toEqual(['io', 'answer']);
    expect(sliced).toEqual(whole);
  });

  test('behavior: markets on chains outside the scope are not replayed', async () => {
    const deps = await history(3 * 24, (h) => ({ a: 4, b: h < 10 ? 3 : 9 }));
    const r = await simulateStanding(deps, params(3 * 24), { chains: (c) => c !== 'arbitrum-sepolia' });
    expect(r.series.map((s) => s.chain)).toEqual(['base-sepolia']);
    expect(r.moves).toEqual([]);
  });
});
