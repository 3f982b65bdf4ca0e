import type { Db, Filter } from 'mongodb';
import { createSystemClock, type Clock } from '../../domain/clock';
import { rateHistoryCutoff, type RateSample } from '../../domain/rateHistory';
import type { SampleCosts } from '../../domain/standingIntent';
import type { RateHistoryRepo } from '../../ports/store';

/** A sample as stored: `atDate` carries the TTL index (RATE_HISTORY_RETENTION_DAYS; indexes.ts). */
type RateSampleDoc = RateSample & { _id?: unknown; atDate: Date };
/** The costs of one sample minute as stored, under the same TTL. */
type RateCostsDoc = SampleCosts & { _id?: unknown; at: string; atDate: Date };

/**
 * A sample's key. A sample without a token matches the documents stored
 * without one: `token: null` matches a missing field, and the unique index
 * holds a missing field as null.
 */
const keyOf = (s: RateSample): Filter<RateSampleDoc> =>
  ({ chain: s.chain, protocol: s.protocol, asset: s.asset, token: s.token ?? null, at: s.at }) as Filter<RateSampleDoc>;

/** Two instances inserting the same new key at once: one upsert loses with a duplicate key; writing again updates the winner's. */
const isDuplicateKey = (e: unknown) => (e as { code?: number }).code === 11000;

/** The lower bound of a read: `from`, or after the retention cutoff when `from` is at or before it. */
function windowOf(from: string, to: string, now: Date): { $gte: string; $lt: string } | { $gt: string; $lt: string } {
  const cutoff = rateHistoryCutoff(now).toISOString();
  return from <= cutoff ? { $gt: cutoff, $lt: to } : { $gte: from, $lt: to };
}

/**
 * MongoDB APY history: collection `rateHistory`, one document per (chain,
 * protocol, asset, token, at), unique on that key, so instances sampling the
 * same minute upsert one document; collection `rateCosts`, one document per
 * sample minute. TTL indexes remove both after RATE_HISTORY_RETENTION_DAYS;
 * until the server's monitor gets to them (or on a server without TTL
 * indexes) reads leave them out by date.
 */
export function createMongoRateHistory(db: Db, clock: Pick<Clock, 'now'> = createSystemClock()): RateHistoryRepo {
  const samples = db.collection<RateSampleDoc>('rateHistory');
  const costs = db.collection<RateCostsDoc>('rateCosts');

  return {
    async record(list) {
      if (list.length === 0) return;
      await samples
        .bulkWrite(
          list.map((s) => ({
            updateOne: {
              filter: keyOf(s),
              update: { $set: { apy: s.apy }, $setOnInsert: { atDate: new Date(s.at) } },
              upsert: true,
            },
          })),
          { ordered: false },
        )
        .catch(async (e: unknown) => {
          if (!isDuplicateKey(e)) throw e;
          for (const s of list) await samples.updateOne(keyOf(s), { $set: { apy: s.apy } });
        });
    },
    async list({ chain, protocol, asset, from, to }) {
      const filter: Filter<RateSampleDoc> = { at: windowOf(from, to, clock.now()) };
      if (chain !== undefined) filter.chain = chain;
      if (protocol !== undefined) filter.protocol = protocol;
      if (asset !== undefined) filter.asset = asset;
      const docs = await samples
        .find(filter, { projection: { _id: 0, chain: 1, protocol: 1, asset: 1, token: 1, at: 1, apy: 1 } })
        .sort({ chain: 1, protocol: 1, asset: 1, token: 1, at: 1 })
        .toArray();
      return docs.map((d) => {
        const s: RateSample = { chain: d.chain, protocol: d.protocol, asset: d.asset, at: d.at, apy: d.apy };
        if (typeof d.token === 'string') s.token = d.token;
        return s;
      });
    },
    async recordCosts(at, c) {
      const set: SampleCosts = { gasUsdPerUnit: c.gasUsdPerUnit, routeFeeBps: c.routeFeeBps };
      if (c.assetUsd !== undefined) set.assetUsd = c.assetUsd;
      const write = () => costs.updateOne({ at }, { $set: set, $setOnInsert: { atDate: new Date(at) } }, { upsert: true });
      await write().catch(async (e: unknown) => {
        if (!isDuplicateKey(e)) throw e;
        await write();
      });
    },
    async listCosts(from, to) {
      const docs = await costs
        .find({ at: windowOf(from, to, clock.now()) }, { projection: { _id: 0, at: 1, gasUsdPerUnit: 1, routeFeeBps: 1, assetUsd: 1 } })
        .sort({ at: 1 })
        .toArray();
      return docs.map((d) => {
        const recorded: SampleCosts = { gasUsdPerUnit: d.gasUsdPerUnit ?? {}, routeFeeBps: d.routeFeeBps ?? {} };
        if (d.assetUsd !== undefined) recorded.assetUsd = d.assetUsd;
        return { at: d.at, costs: recorded };
      });
    },
  };
}
