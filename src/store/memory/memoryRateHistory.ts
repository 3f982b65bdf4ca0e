import { rateHistoryCutoff, type RateSample } from '../../domain/rateHistory';
import type { RateHistoryRepo } from '../../ports/store';

const marketKey = (s: Pick<RateSample, 'chain' | 'protocol' | 'asset'>) => `${s.chain}\u0000${s.protocol}\u0000${s.asset}`;

/**
 * APY samples in memory: per market, one APY per sample minute (a second
 * record of the same minute replaces it, as the unique key on MongoDB does).
 * Same retention as the TTL index there: samples older than
 * RATE_HISTORY_RETENTION_DAYS are dropped, and never listed before that.
 */
export function createMemoryRateHistory(clock: { now(): Date } = { now: () => new Date() }): RateHistoryRepo {
  const markets = new Map<string, { market: Pick<RateSample, 'chain' | 'protocol' | 'asset'>; samples: Map<string, number> }>();
  /** The earliest sample time (ms) stored: nothing can have expired before it, so most calls sweep nothing. */
  let oldest = Number.POSITIVE_INFINITY;

  /** Drops expired samples once the oldest one may have expired; returns the cutoff (ISO) at or below which nothing is listed. */
  function prune(): string {
    const cutoffDate = rateHistoryCutoff(clock.now());
    const cutoff = cutoffDate.toISOString();
    if (oldest > cutoffDate.getTime()) return cutoff;
    oldest = Number.POSITIVE_INFINITY;
    for (const [key, m] of markets) {
      for (const at of [...m.samples.keys()]) {
        if (at <= cutoff) m.samples.delete(at);
        else oldest = Math.min(oldest, Date.parse(at));
      }
      if (m.samples.size === 0) markets.delete(key);
    }
    return cutoff;
  }

  return {
    async record(samples) {
      const cutoff = prune();
      for (const s of samples) {
        if (s.at <= cutoff) continue; // already past retention: gone at once
        const key = marketKey(s);
        let m = markets.get(key);
        if (!m) markets.set(key, (m = { market: { chain: s.chain, protocol: s.protocol, asset: s.asset }, samples: new Map() }));
        m.samples.set(s.at, s.apy);
        oldest = Math.min(oldest, Date.parse(s.at));
      }
    },
    async list({ chain, protocol, asset, from, to }) {
      const cutoff = prune();
      const out: RateSample[] = [];
      const matching = [...markets.values()]
        .filter(
          ({ market: m }) =>
            (chain === undefined || m.chain === chain) && (protocol === undefined || m.protocol === protocol) && (asset === undefined || m.asset === asset),
        )
        .sort((a, b) => (marketKey(a.market) < marketKey(b.market) ? -1 : 1));
      for (const { market, samples } of matching) {
        const rows = [...samples].filter(([at]) => at > cutoff && at >= from && at < to).sort(([a], [b]) => (a < b ? -1 : 1));
        for (const [at, apy] of rows) out.push({ ...market, at, apy });
      }
      return out;
    },
  };
}
