import type { Db, Filter } from 'mongodb';
import type { Clock } from '../../domain/clock';
import { auditRetentionCutoff, type AuditEvent } from '../../domain/audit';
import type { AuditLog } from '../../ports/store';

/** An event as stored: `atDate` carries the TTL index (AUDIT_RETENTION_DAYS; indexes.ts). */
type AuditDoc = AuditEvent & { _id?: unknown; atDate: Date };

const noStorageFields = { projection: { _id: 0, atDate: 0 } } as const;

/** The event without the storage fields (some MongoDB-compatible servers return them despite the projection). */
function toEvent(doc: AuditDoc): AuditEvent {
  const { _id, atDate, ...event } = doc;
  void _id;
  void atDate;
  return event;
}

/**
 * MongoDB audit log: collection `auditLog`, one document per event, listed
 * per account newest first on the index (accountId, at desc, id desc). The
 * TTL index removes events after AUDIT_RETENTION_DAYS; until the server's
 * monitor gets to them (or on a server without TTL indexes) reads leave them
 * out by date, as the memory adapter does.
 */
export function createMongoAuditLog(db: Db, clock: Pick<Clock, 'now'>): AuditLog {
  const events = db.collection<AuditDoc>('auditLog');

  return {
    async append(event) {
      // Absent subject ids stay absent (the driver would otherwise store `undefined` as null).
      await events.insertOne({ ...structuredClone(event), atDate: new Date(event.at) }, { ignoreUndefined: true });
    },
    async list(accountId, { type, walletId, intentId, since, limit, after }) {
      if (limit <= 0) return [];
      const filter: Filter<AuditDoc> = { accountId, atDate: { $gt: auditRetentionCutoff(clock.now()) } };
      if (type !== undefined) filter.type = type;
      if (walletId !== undefined) filter['subject.walletId'] = walletId;
      if (intentId !== undefined) filter['subject.intentId'] = intentId;
      if (since !== undefined) filter.at = { $gte: since };
      if (after !== undefined) filter.$or = [{ at: { $lt: after.at } }, { at: after.at, id: { $lt: after.id } }];
      const docs = await events.find(filter, noStorageFields).sort({ at: -1, id: -1 }).limit(limit).toArray();
      return docs.map(toEvent);
    },
  };
}
