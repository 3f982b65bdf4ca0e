import { rateHistoryCutoff, type RateSample } from '../../domain/rateHistory';
import type { SampleCosts } from '../../domain/standingIntent';
import type { RateHistoryRepo, RecordedCosts } from '../../ports/store';

type MarketOf = Pick<RateSample, 'chain' | 'protocol' | 'asset' | 'token'>;

/** The market's key, in the order samples are listed (a sample without a token sorts before those with one). */
const marketKey = (s: MarketOf) => `${s.chain}\u0000${s.protocol}\u0000${s.asset}\u0000${s.token ?? ''}`;

/**
 * APY samples in memory: per market (token included), one APY per sample
 * minute (a second record of the same minute replaces it, as the unique key
 * on MongoDB does), and the costs of each sample minute. Same retention as
 * the TTL indexes there: samples and costs older than
 * RATE_HISTORY_RETENTION_DAYS are dropped, and never listed before that.
 */
export function createMemoryRateHistory(clock: { now(): Date } = { now: () => new Date() }): RateHistoryRepo {
  const markets = new Map<string, { market: MarketOf; samples: Map<string, number> }>();
  const costsByMinute = new Map<string, SampleCosts>();
  /** The earliest time (ms) stored: nothing can have expired before it, so most calls sweep nothing. */
  let oldest = Number.POSITIVE_INFINITY;

  /** Drops expired records once the oldest one may have expired; returns the cutoff (ISO) at or below which nothing is listed. */
  function prune(): string {
    const cutoffDate = rateHistoryCutoff(clock.now());
    const cutoff = cutoffDate.toISOString();
    if (oldest > cutoffDate.getTime()) return cutoff;
    oldest = Number.POSITIVE_INFINITY;
    const keep = (at: string) => {
      if (at <= cutoff) return false;
      oldest = Math.min(oldest, Date.parse(at));
      return true;
    };
    for (const [key, m] of markets) {
      for (const at of [...m.samples.keys()]) if (!keep(at)) m.samples.delete(at);
      if (m.samples.size === 0) markets.delete(key);
    }
    for (const at of [...costsByMinute.keys()]) if (!keep(at)) costsByMinute.delete(at);
    return cutoff;
  }

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
          markets.set(key, (m = { market, samples: new Map() }));
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
      for (const [, { market, samples }] of matching) {
        const rows = [...samples].filter(([at]) => at > cutoff && at >= from && at < to).sort(([a], [b]) => (a < b ? -1 : 1));
        for (const [at, apy] of rows) out.push({ ...market, at, apy });
      }
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
      const out: RecordedCosts[] = [];
      for (const [at, costs] of costsByMinute) if (at > cutoff && at >= from && at < to) out.push({ at, costs: structuredClone(costs) });
      return out.sort((a, b) => (a.at < b.at ? -1 : 1));
    },
  };
}
