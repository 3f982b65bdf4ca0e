import type { RateSample } from '../../domain/rateHistory';
import { STABLECOINS } from '../../domain/chains';
import { fromUnits, toUnits } from '../../domain/money';
import { decide } from '../../domain/standingDecision';
import type { MarketRef, SampleCosts, SimulateParams, SimulateResult, SimulatedMove, StrategyEarnings } from '../../domain/standingIntent';
import { buildDecisionInput, UnpricedAssetError } from './decisionInput';

/** The chart's series and cumulative earnings keep about this many points per market however long the window (every move's sample is kept besides). */
export const MAX_CHART_POINTS = 500;

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const keyOf = (m: MarketRef) => `${m.chain}/${m.protocol}`;
const refOf = (m: MarketRef): MarketRef => ({ chain: m.chain, protocol: m.protocol });
const earnings = (earnedUsd: number, costsUsd: number): StrategyEarnings => ({
  earnedUsd: round6(earnedUsd),
  costsUsd: round6(costsUsd),
  netUsd: round6(earnedUsd - costsUsd),
});

/** One sample minute of the asset's markets, with the costs recorded then (the latest at or before it; else the first after). */
export interface ReplayMinute {
  at: string;
  samples: RateSample[];
  costs: SampleCosts | undefined;
}

/** Each market's APY at one minute, one per (chain, protocol): a sample naming its token wins over one recorded before samples named it. */
function ratesOf(samples: readonly RateSample[]): Map<string, { ref: MarketRef; apy: number; tokened: boolean }> {
  const out = new Map<string, { ref: MarketRef; apy: number; tokened: boolean }>();
  for (const s of samples) {
    const seen = out.get(keyOf(s));
    if (!seen || (!seen.tokened && s.token !== undefined)) out.set(keyOf(s), { ref: refOf(s), apy: s.apy, tokened: s.token !== undefined });
  }
  return out;
}

/**
 * The backtest's replay, fed one sample minute at a time (oldest first).
 * All the funds sit in one market: the start (or the best at the first
 * sample). From the second sample on, each minute is decided by the live
 * engine's decision (buildDecisionInput, decide) on the synthetic holdings;
 * a move completes before the next sample and its costs are paid out of the
 * earnings (the amount lent stays the same). Between two samples every
 * market earns at its APY of the earlier one (the last known, across gaps),
 * in USD at the asset's price then: the strategy in the market it held, and
 * each market as if the funds had stayed there all along, which gives the
 * first market's and today's best's earnings. Nothing is counted after the
 * last sample. A minute without costs prices no move; a non-stablecoin
 * without a price is not decided.
 */
export function createReplay(params: SimulateParams, window: { fromMs: number; toMs: number }) {
  const amount = toUnits(params.amount, params.asset);
  const tokens = Number(fromUnits(amount, params.asset));
  const width = Math.max(60_000, Math.ceil((window.toMs - window.fromMs) / MAX_CHART_POINTS / 60_000) * 60_000);
  const bucketOf = (ms: number) => Math.floor((ms - window.fromMs) / width);

  let start: MarketRef | undefined = params.start && refOf(params.start);
  let held: MarketRef | undefined = start;
  let previous: { ms: number; samples: RateSample[] } | undefined;
  let assetUsd = STABLECOINS.includes(params.asset) ? 1 : undefined;
  let lastRates = new Map<string, { ref: MarketRef; apy: number; tokened: boolean }>();
  const lastApy = new Map<string, number>();
  const stayEarned = new Map<string, number>();
  let earned = 0;
  let costs = 0;
  let samples = 0;
  const moves: SimulatedMove[] = [];
  const moveTimes: number[] = [];
  const series = new Map<string, { ref: MarketRef; points: Array<[string, number]>; bucket: number; last?: [string, number] }>();
  const cumulative: Array<[string, number, number]> = [];
  let cumulativeBucket = -1;
  let lastCumulative: [string, number, number] | undefined;

  /** Every market's and the strategy's earnings over [previous, ms), at the APYs known at `previous`. */
  function accrue(ms: number): void {
    if (!previous || assetUsd === undefined) return;
    const usdYears = (tokens * assetUsd * (ms - previous.ms)) / YEAR_MS;
    for (const [key, apy] of lastApy) stayEarned.set(key, (stayEarned.get(key) ?? 0) + (usdYears * apy) / 100);
    if (held) earned += (usdYears * (lastApy.get(keyOf(held)) ?? 0)) / 100;
  }

  /** The decision at this minute on the funds where they are; a move made is recorded and takes them to its target. */
  function decideAt(minute: ReplayMinute, ms: number): boolean {
    if (!previous || !held) return false;
    const priced = minute.costs ?? { gasUsdPerUnit: {}, routeFeeBps: {} };
    let input;
    try {
      input = buildDecisionInput({
        standing: {
          asset: params.asset,
          amount: params.amount,
          horizonDays: params.horizonDays,
          minGainUsd: params.minGainUsd,
          maxMovesPerDay: params.maxMovesPerDay,
        },
        holdings: [{ ...held, amount }],
        samples: minute.samples,
        previous: previous.samples,
        costs: priced,
        movesInLastDay: moveTimes.filter((t) => t > ms - DAY_MS).length,
        intentInFlight: false,
      });
    } catch (e) {
      if (e instanceof UnpricedAssetError) return false;
      throw e;
    }
    const d = decide(input);
    if (!d.move || !d.numbers.target) return false;
    const target = refOf(d.numbers.target);
    moves.push({
      at: minute.at,
      from: { ...held, apy: d.numbers.sources[0]?.apy ?? 0 },
      to: { ...target, apy: d.numbers.target.apy },
      amount: d.numbers.amount,
      costUsd: d.numbers.costs.totalUsd,
      netGainUsd: d.numbers.netGainUsd,
    });
    moveTimes.push(ms);
    costs += d.numbers.costs.totalUsd;
    held = target;
    return true;
  }

  /** The chart's points of this minute: the first of each bucket, and every move's. */
  function chart(at: string, ms: number, moved: boolean): void {
    const bucket = bucketOf(ms);
    for (const [key, { ref, apy }] of lastRates) {
      let s = series.get(key);
      if (!s) series.set(key, (s = { ref, points: [], bucket: -1 }));
      s.last = [at, apy];
      if (s.bucket !== bucket || moved) {
        s.points.push([at, apy]);
        s.bucket = bucket;
      }
    }
    lastCumulative = [at, round6(earned - costs), round6(start ? (stayEarned.get(keyOf(start)) ?? 0) : 0)];
    if (cumulativeBucket !== bucket || moved) {
      cumulative.push(lastCumulative);
      cumulativeBucket = bucket;
    }
  }

  return {
    /** One sample minute of the asset's markets (minutes in ascending order). */
    minute(minute: ReplayMinute): void {
      const ms = Date.parse(minute.at);
      samples += 1;
      accrue(ms);
      lastRates = ratesOf(minute.samples);
      for (const [key, { apy }] of lastRates) lastApy.set(key, apy);
      if (minute.costs?.assetUsd?.[params.asset] !== undefined) assetUsd = minute.costs.assetUsd[params.asset];
      if (!start) {
        const best = [...lastRates.values()].reduce<{ ref: MarketRef; apy: number } | undefined>((b, m) => (!b || m.apy > b.apy ? m : b), undefined);
        start = best && best.ref;
        held = start;
      }
      const moved = decideAt(minute, ms);
      chart(minute.at, ms, moved);
      previous = { ms, samples: minute.samples };
    },

    /** The answer once every minute is in. */
    result(): SimulateResult {
      const best = [...lastRates.values()].reduce<{ ref: MarketRef; apy: number } | undefined>((b, m) => (!b || m.apy > b.apy ? m : b), undefined);
      const stay = (m: MarketRef | undefined) => earnings(m ? (stayEarned.get(keyOf(m)) ?? 0) : 0, 0);
      if (lastCumulative && cumulative.at(-1)?.[0] !== lastCumulative[0]) cumulative.push(lastCumulative);
      return {
        from: new Date(window.fromMs).toISOString(),
        to: new Date(window.toMs).toISOString(),
        samples,
        moves,
        strategy: earnings(earned, costs),
        todaysBest: { ...stay(best?.ref), market: best ? best.ref : null },
        firstMarket: { ...stay(start), market: start ?? null },
        series: [...series.values()]
          .sort((a, b) => (keyOf(a.ref) < keyOf(b.ref) ? -1 : 1))
          .map((s) => ({ ...s.ref, points: s.last && s.points.at(-1)?.[0] !== s.last[0] ? [...s.points, s.last] : s.points })),
        cumulative,
      };
    },
  };
}
