import { createSystemClock, type Clock } from '../../domain/clock';
import { MongoServerError, type Db, type Filter } from 'mongodb';
import { DECISION_RETENTION_DAYS, type StandingDecision, type StandingIntent } from '../../domain/standingIntent';
import { DuplicateError, type StandingDecisionRepo, type StandingIntentRepo } from '../../ports/store';

type StandingDoc = StandingIntent & { _id?: unknown };
/** `decidedAtDate`: the TTL index's date (a BSON date; the ISO string is what the port returns). */
type DecisionDoc = StandingDecision & { _id?: unknown; decidedAtDate?: Date };

const RETENTION_MS = DECISION_RETENTION_DAYS * 86_400_000;
const noId = { projection: { _id: 0, decidedAtDate: 0 } } as const;
const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

function clean<T>(doc: (T & { _id?: unknown; decidedAtDate?: unknown }) | null): T | null {
  if (!doc) return null;
  const { _id, decidedAtDate, ...rest } = doc;
  void _id;
  void decidedAtDate;
  return rest as T;
}

/**
 * Standing intents (collection `standingIntents`): unique by id and by
 * (walletId, asset), so one wallet keeps one standing intent per asset even
 * when two instances create them at once.
 */
export function createMongoStandingIntents(db: Db): StandingIntentRepo {
  const standing = db.collection<StandingDoc>('standingIntents');
  return {
    async insert(s) {
      try {
        await standing.insertOne({ ...s });
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        // Which key: compatible servers do not all name the index in the error, the documents tell.
        const sameId = (await standing.countDocuments({ id: s.id }, { limit: 1 })) > 0;
        throw new DuplicateError(sameId ? 'standingIntents.id' : 'standingIntents.walletId_asset');
      }
    },
    async get(id) {
      return clean<StandingIntent>(await standing.findOne({ id }, noId));
    },
    async listByAccount(accountId, { limit, after }) {
      if (limit <= 0) return [];
      const filter: Filter<StandingDoc> = { accountId };
      if (after) filter.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }];
      const docs = await standing.find(filter, noId).sort({ createdAt: -1, id: -1 }).limit(limit).toArray();
      return docs.map((d) => clean<StandingIntent>(d)!);
    },
    async countByAccount(accountId) {
      return standing.countDocuments({ accountId });
    },
    async listByWallet(walletId) {
      const docs = await standing.find({ walletId }, noId).toArray();
      return docs.map((d) => clean<StandingIntent>(d)!);
    },
    async listActive() {
      const docs = await standing.find({ status: 'active' }, noId).sort({ createdAt: 1, id: 1 }).toArray();
      return docs.map((d) => clean<StandingIntent>(d)!);
    },
    async update(s, expectedVersion) {
      const r = await standing.replaceOne({ id: s.id, version: expectedVersion }, { ...s });
      return r.matchedCount === 1;
    },
    async delete(id) {
      const r = await standing.deleteOne({ id });
      return r.deletedCount === 1;
    },
  };
}

/**
 * Decisions (collection `standingDecisions`): the unique index on
 * (standingIntentId, sampleAt) lets exactly one instance record the decision
 * of a sample minute; the others' inserts fail and they do nothing more.
 * Kept DECISION_RETENTION_DAYS (TTL on `decidedAtDate`); reads ignore older
 * ones where the server keeps them.
 */
export function createMongoStandingDecisions(db: Db, clock: Pick<Clock, 'now'> = createSystemClock()): StandingDecisionRepo {
  const decisions = db.collection<DecisionDoc>('standingDecisions');
  const cutoff = () => new Date(clock.now().getTime() - RETENTION_MS).toISOString();
  return {
    async insertOnce(d) {
      try {
        await decisions.insertOne({ ...d, decidedAtDate: new Date(d.decidedAt) });
        return true;
      } catch (e) {
        if (isDuplicateKey(e)) return false;
        throw e;
      }
    },
    async settle(id, settlement) {
      // what the settlement leaves out is removed (a move that became a skip loses nothing it did not have, an intent id it never got)
      const set = Object.fromEntries(Object.entries(settlement).filter(([, v]) => v !== undefined));
      const unset = (['reason', 'rule', 'intentId'] as const).filter((k) => settlement[k] === undefined);
      // only an unsettled move: of two instances settling one decision, the first wins
      const r = await decisions.updateOne(
        { id, outcome: 'rebalanced', intentId: { $exists: false } },
        { $set: set, ...(unset.length > 0 && { $unset: Object.fromEntries(unset.map((k) => [k, ''])) }) },
      );
      return r.matchedCount === 1;
    },
    async get(id) {
      return clean<StandingDecision>(await decisions.findOne({ id, decidedAt: { $gte: cutoff() } }, noId));
    },
    async list(standingIntentId, { limit, after }) {
      if (limit <= 0) return [];
      const filter: Filter<DecisionDoc> = { standingIntentId, decidedAt: { $gte: cutoff() } };
      if (after) filter.$or = [{ sampleAt: { $lt: after.sampleAt } }, { sampleAt: after.sampleAt, id: { $lt: after.id } }];
      const docs = await decisions.find(filter, noId).sort({ sampleAt: -1, id: -1 }).limit(limit).toArray();
      return docs.map((d) => clean<StandingDecision>(d)!);
    },
    async countRebalancedSince(standingIntentId, since) {
      return decisions.countDocuments({ standingIntentId, outcome: 'rebalanced', sampleAt: { $gte: since }, decidedAt: { $gte: cutoff() } });
    },
    async deleteByStandingIntent(standingIntentId) {
      await decisions.deleteMany({ standingIntentId });
    },
  };
}
