import type { Db } from 'mongodb';
import type { PositionLedgerEntry, PositionLedgerRepo } from '../../ports/store';

/** The entry's own fields, and an absent `positionAfter` or `index` left out (the driver would store an undefined one as null). */
function entryOf(d: PositionLedgerEntry): PositionLedgerEntry {
  const e: PositionLedgerEntry = {
    intentId: d.intentId,
    stepIndex: d.stepIndex,
    walletId: d.walletId,
    chain: d.chain,
    protocol: d.protocol,
    asset: d.asset,
    kind: d.kind,
    amount: d.amount,
    at: d.at,
  };
  if (d.positionAfter != null) e.positionAfter = d.positionAfter;
  if (d.index != null) e.index = d.index;
  return e;
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
        const r = await entries.updateOne({ intentId: entry.intentId, stepIndex: entry.stepIndex }, { $setOnInsert: entryOf(entry) }, { upsert: true });
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
      return docs.map(entryOf);
    },
  };
}
