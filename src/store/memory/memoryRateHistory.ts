import { createSystemClock, type Clock } from '../../domain/clock';
import { rateHistoryCutoff, type RateSample } from '../../domain/rateHistory';
import type { SampleCosts } from '../../domain/standingIntent';
import type { RateHistoryRepo } from '../../ports/store';

type MarketOf = Pick<RateSample, 'chain' | 'protocol' | 'asset' | 'token'>;

/** The market's key, in the order samples are listed (a sample without a token sorts before those with one). */
const marketKey = (s: MarketOf) => `${s.chain}\u0000${s.protocol}\u0000${s.asset}\u0000${s.token ?? ''}`;

/** Index of the first key of ascending `keys` that is not before `at` (strictly after it with `after`). */
function lowerBound(keys: readonly string[], at: string, after = false): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < at || (after && keys[mid] === at)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Values by sample minute, with the minutes kept in order so a window is read without scanning the rest. */
class ByMinute<T> {
  readonly values = new Map<string, T>();
  readonly order: string[] = [];

  set(at: string, value: T): void {
    if (!this.values.has(at)) {
      // samples arrive in time order: appending is the rule, inserting the exception
      if (this.order.length === 0 || at > this.order[this.order.length - 1]!) this.order.push(at);
      else this.order.splice(lowerBound(this.order, at), 0, at);
    }
    this.values.set(at, value);
  }

  /** Drops the minutes at or before `cutoff`. */
  dropThrough(cutoff: string): void {
    const n = lowerBound(this.order, cutoff, true);
    for (const at of this.order.splice(0, n)) this.values.delete(at);
  }

  /** The minutes in [from, to), ascending. */
  *window(from: string, to: string): Generator<[string, T]> {
    for (let i = lowerBound(this.order, from); i < this.order.length && this.order[i]! < to; i++) yield [this.order[i]!, this.values.get(this.order[i]!)!];
  }

  get oldest(): string | undefined {
    return this.order[0];
  }
}

/**
 * APY samples in memory: per market (token included), one APY per sample
 * minute (a second record of the same minute replaces it, as the unique key
 * on MongoDB does), and the costs of each sample minute. Same retention as
 * the TTL indexes there: samples and costs older than
 * RATE_HISTORY_RETENTION_DAYS are dropped, and never listed before that.
 */
export function createMemoryRateHistory(clock: Pick<Clock, 'now'> = createSystemClock()): RateHistoryRepo {
  const markets = new Map<string, { market: MarketOf; samples: ByMinute<number> }>();
  const costsByMinute = new ByMinute<SampleCosts>();
  /** The earliest time (ms) stored: nothing can have expired before it, so most calls sweep nothing. */
  let oldest = Number.POSITIVE_INFINITY;

  /** Drops expired records once the oldest one may have expired; returns the cutoff (ISO) at or below which nothing is listed. */
  function prune(): string {
    const cutoffDate = rateHistoryCutoff(clock.now());
    const cutoff = cutoffDate.toISOString();
    if (oldest > cutoffDate.getTime()) return cutoff;
    oldest = Number.POSITIVE_INFINITY;
    const kept = (m: ByMinute<unknown>) => {
      m.dropThrough(cutoff);
      if (m.oldest !== undefined) oldest = Math.min(oldest, Date.parse(m.oldest));
      return m.order.length > 0;
    };
    for (const [key, m] of markets) if (!kept(m.samples)) markets.delete(key);
    kept(costsByMinute);
    return cutoff;
  }

  /** The lower bound of a read: `from`, or just after the cutoff when `from` is at or before it. */
  const fromAfter = (from: string, cutoff: string) => (from > cutoff ? from : `${cutoff}\u0000`);

  return {
    async record(samples) {
      const cutoff = prune();
      for (const s of samples) {
        if (s.at <= cutoff) continue; // already past retention: gone at once
        const key = marketKey(s);
        let m = markets.get(key);
        if (!m) {
          const market: MarketOf = { chain: s.chain, protocol: s.protocol, asset: s.asset };
          if (s.token !== undefined) market.token = s.token;
          markets.set(key, (m = { market, samples: new ByMinute() }));
        }
        m.samples.set(s.at, s.apy);
        oldest = Math.min(oldest, Date.parse(s.at));
      }
    },
    async list({ chain, protocol, asset, from, to }) {
      const cutoff = prune();
      const out: RateSample[] = [];
      const matching = [...markets.entries()]
        .filter(
          ([, { market: m }]) =>
            (chain === undefined || m.chain === chain) && (protocol === undefined || m.protocol === protocol) && (asset === undefined || m.asset === asset),
        )
        .sort(([a], [b]) => (a < b ? -1 : 1));
      for (const [, { market, samples }] of matching) for (const [at, apy] of samples.window(fromAfter(from, cutoff), to)) out.push({ ...market, at, apy });
      return out;
    },
    async recordCosts(at, costs) {
      const cutoff = prune();
      if (at <= cutoff) return;
      costsByMinute.set(at, structuredClone(costs));
      oldest = Math.min(oldest, Date.parse(at));
    },
    async listCosts(from, to) {
      const cutoff = prune();
      return [...costsByMinute.window(fromAfter(from, cutoff), to)].map(([at, costs]) => ({ at, costs: structuredClone(costs) }));
    },
  };
}
