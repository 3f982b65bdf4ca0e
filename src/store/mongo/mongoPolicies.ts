import { MongoServerError, type Db, type Filter } from 'mongodb';
import type { Policy } from '../../domain/policy';
import { DuplicateError, type PolicyRepo } from '../../ports/store';

type PolicyDoc = Policy & { _id?: unknown };

const noId = { projection: { _id: 0 } } as const;
const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

function clean(doc: PolicyDoc | null): Policy | null {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  void _id;
  return rest;
}

/**
 * Spending policies (collection `policies`). One account-scope policy per
 * account is held by a claim document in `policyClaims` whose `_id` is the
 * account (its built-in unique index works on every compatible server, where
 * partial unique indexes do not): claimed before the insert, released with the
 * policy.
 */
export function createMongoPolicies(db: Db): PolicyRepo {
  const policies = db.collection<PolicyDoc>('policies');
  const claims = db.collection<{ _id: string; policyId: string }>('policyClaims');
  return {
    async insert(p) {
      if (p.scope === 'account') {
        try {
          await claims.insertOne({ _id: p.accountId, policyId: p.id });
        } catch (e) {
          if (isDuplicateKey(e)) throw new DuplicateError('policies.accountScope');
          throw e;
        }
      }
      try {
        await policies.insertOne({ ...p });
      } catch (e) {
        if (p.scope === 'account') await claims.deleteOne({ _id: p.accountId, policyId: p.id });
        if (isDuplicateKey(e)) throw new DuplicateError('policies.id');
        throw e;
      }
    },
    async get(id) {
      return clean(await policies.findOne({ id }, noId));
    },
    async listByAccount(accountId, { limit, after }) {
      if (limit <= 0) return [];
      const filter: Filter<PolicyDoc> = { accountId };
      if (after) filter.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }];
      const docs = await policies.find(filter, noId).sort({ createdAt: -1, id: -1 }).limit(limit).toArray();
      return docs.map((d) => clean(d) as Policy);
    },
    async update(p, expectedVersion) {
      const r = await policies.replaceOne({ id: p.id, version: expectedVersion }, { ...p });
      return r.matchedCount === 1;
    },
    async delete(id) {
      const p = clean(await policies.findOne({ id }, noId));
      if (!p) return;
      await policies.deleteOne({ id });
      if (p.scope === 'account') await claims.deleteOne({ _id: p.accountId, policyId: id });
    },
    async accountPolicy(accountId) {
      const claim = await claims.findOne({ _id: accountId });
      return claim ? clean(await policies.findOne({ id: claim.policyId }, noId)) : null;
    },
  };
}
