import type { Db, Filter } from 'mongodb';
import { rateHistoryCutoff, type RateSample } from '../../domain/rateHistory';
import type { RateHistoryRepo } from '../../ports/store';

/** A sample as stored: `atDate` carries the TTL index (RATE_HISTORY_RETENTION_DAYS; indexes.ts). */
type RateSampleDoc = RateSample & { _id?: unknown; atDate: Date };

/**
 * MongoDB APY history: collection `rateHistory`, one document per (chain,
 * protocol, asset, at), unique on that key, so instances sampling the same
 * minute upsert one document. The TTL index removes samples after
 * RATE_HISTORY_RETENTION_DAYS; until the server's monitor gets to them (or
 * on a server without TTL indexes) reads leave them out by date.
 */
export function createMongoRateHistory(db: Db): RateHistoryRepo {
  const samples = db.collection<RateSampleDoc>('rateHistory');

  return {
    async record(list) {
      if (list.length === 0) return;
      await samples
        .bulkWrite(
          list.map((s) => ({
            updateOne: {
              filter: { chain: s.chain, protocol: s.protocol, asset: s.asset, at: s.at },
              update: { $set: { apy: s.apy }, $setOnInsert: { atDate: new Date(s.at) } },
              upsert: true,
            },
          })),
          { ordered: false },
        )
        .catch(async (e: unknown) => {
          // Two instances inserting the same new key at once: one upsert loses with a duplicate key; writing again updates the winner's.
          if ((e as { code?: number }).code !== 11000) throw e;
          for (const s of list) {
            await samples.updateOne({ chain: s.chain, protocol: s.protocol, asset: s.asset, at: s.at }, { $set: { apy: s.apy } });
          }
        });
    },
    async list({ chain, protocol, asset, from, to }) {
      const cutoff = rateHistoryCutoff(new Date()).toISOString();
      const filter: Filter<RateSampleDoc> = { at: { $gte: from > cutoff ? from : cutoff, $lt: to } };
      if (from <= cutoff) filter.at = { $gt: cutoff, $lt: to };
      if (chain !== undefined) filter.chain = chain;
      if (protocol !== undefined) filter.protocol = protocol;
      if (asset !== undefined) filter.asset = asset;
      const docs = await samples
        .find(filter, { projection: { _id: 0, chain: 1, protocol: 1, asset: 1, at: 1, apy: 1 } })
        .sort({ chain: 1, protocol: 1, asset: 1, at: 1 })
        .toArray();
      return docs.map((d) => ({ chain: d.chain, protocol: d.protocol, asset: d.asset, at: d.at, apy: d.apy }));
    },
  };
}
