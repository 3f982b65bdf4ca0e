import type { Policy } from '../../domain/policy';
import { DuplicateError, type PolicyCursor, type PolicyRepo } from '../../ports/store';

const copy = <T>(v: T): T => structuredClone(v);

function newestFirst(a: PolicyCursor, b: PolicyCursor): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Spending policies in memory; one account-scope policy per account. */
export function createMemoryPolicies(): PolicyRepo {
  const policies = new Map<string, Policy>();
  const accountScope = new Map<string, string>();
  return {
    async insert(p) {
      if (policies.has(p.id)) throw new DuplicateError('policies.id');
      if (p.scope === 'account') {
        if (accountScope.has(p.accountId)) throw new DuplicateError('policies.accountScope');
        accountScope.set(p.accountId, p.id);
      }
      policies.set(p.id, copy(p));
    },
    async get(id) {
      const p = policies.get(id);
      return p ? copy(p) : null;
    },
    async listByAccount(accountId, { limit, after }) {
      return [...policies.values()]
        .filter((p) => p.accountId === accountId && (after === undefined || newestFirst(after, p) < 0))
        .sort(newestFirst)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async update(p, expectedVersion) {
      const cur = policies.get(p.id);
      if (!cur || cur.version !== expectedVersion) return false;
      policies.set(p.id, copy(p));
      return true;
    },
    async delete(id) {
      const p = policies.get(id);
      if (!p) return;
      policies.delete(id);
      if (accountScope.get(p.accountId) === id) accountScope.delete(p.accountId);
    },
    async accountPolicy(accountId) {
      const id = accountScope.get(accountId);
      const p = id ? policies.get(id) : undefined;
      return p ? copy(p) : null;
    },
  };
}
