import type { Db } from 'mongodb';
import type { PositionLedgerEntry, PositionLedgerRepo } from '../../ports/store';

/** The entry without the optional fields it lacks (the driver would store an undefined one as null). */
function withoutAbsent(e: PositionLedgerEntry): PositionLedgerEntry {
  const { positionAfter, ...rest } = e;
  return positionAfter == null ? rest : { ...rest, positionAfter };
}

/**
 * MongoDB position ledger: collection `positionLedger`, one document per
 * completed deposit or withdraw step, unique on {intentId, stepIndex}
 * (indexes.ts), so a step recorded twice, by a replay or by two instances at
 * once, is one document.
 */
export function createMongoPositionLedger(db: Db): PositionLedgerRepo {
  const entries = db.collection<PositionLedgerEntry>('positionLedger');

  return {
    async record(entry) {
      try {
        const r = await entries.updateOne(
          { intentId: entry.intentId, stepIndex: entry.stepIndex },
          { $setOnInsert: withoutAbsent(entry) },
          { upsert: true },
        );
        return r.upsertedCount === 1;
      } catch (e) {
        // Two writers inserting the same new key at once: the loser's upsert meets the winner's document.
        if ((e as { code?: number }).code === 11000) return false;
        throw e;
      }
    },
    async listByWallet(walletId) {
      const docs = await entries
        .find({ walletId }, { projection: { _id: 0 } })
        .sort({ at: 1, intentId: 1, stepIndex: 1 })
        .toArray();
      return docs.map(withoutAbsent);
    },
  };
}
