import { MongoServerError, type Db, type Filter } from 'mongodb';
import { NON_FINAL_STATUSES, type Intent } from '../../domain/intent';
import { versionConflict } from '../../domain/errors/intent';
import { DuplicateError, type IntentRepo } from '../../ports/store';

type IntentDoc = Intent & { _id?: unknown };

const noId = { projection: { _id: 0 } } as const;
// Absent optional fields stay absent (the driver would otherwise store `undefined` as null).
const writeOptions = { ignoreUndefined: true } as const;

function clean(doc: IntentDoc | null): Intent | null {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  void _id;
  return rest;
}

/** MongoDB intents repository: collection `intents`, optimistic concurrency on `version` (docs/architecture.md). */
export function createMongoIntents(db: Db): IntentRepo {
  const intents = db.collection<IntentDoc>('intents');

  return {
    async insert(intent) {
      try {
        await intents.insertOne({ ...intent }, writeOptions);
      } catch (e) {
        if (e instanceof MongoServerError && e.code === 11000) throw new DuplicateError('intents.id');
        throw e;
      }
    },
    async get(id) {
      return clean(await intents.findOne({ id }, noId));
    },
    async update(intent, expectedVersion) {
      const r = await intents.replaceOne({ id: intent.id, version: expectedVersion }, { ...intent }, writeOptions);
      if (r.matchedCount === 0) throw versionConflict(intent.id, expectedVersion);
    },
    async listByWallet(walletId, { status, limit, after, updatedSince }) {
      if (limit <= 0) return [];
      const filter: Filter<IntentDoc> = { walletId };
      if (status !== undefined) filter.status = status;
      if (updatedSince !== undefined) filter.updatedAt = { $gte: updatedSince };
      if (after !== undefined) {
        filter.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }];
      }
      const docs = await intents.find(filter, noId).sort({ createdAt: -1, id: -1 }).limit(limit).toArray();
      return docs.map((d) => clean(d) as Intent);
    },
    async listByAccount(accountId, limit) {
      if (limit <= 0) return [];
      const docs = await intents.find({ accountId }, noId).sort({ createdAt: -1, id: -1 }).limit(limit).toArray();
      return docs.map((d) => clean(d) as Intent);
    },
    async listNonFinal() {
      const docs = await intents
        .find({ status: { $in: [...NON_FINAL_STATUSES] } }, noId)
        .sort({ createdAt: 1, id: 1 })
        .toArray();
      return docs.map((d) => clean(d) as Intent);
    },
  };
}
