import type { IntentLeaseRepo } from '../../ports/store';

interface Lease {
  owner: string;
  untilMs: number;
}

/** Intent leases in memory: one process, one engine, so leases only matter to tests and to a restart within the process. */
export function createMemoryIntentLeases(): IntentLeaseRepo {
  const leases = new Map<string, Lease>();
  return {
    async acquire(id, owner, nowMs, untilMs) {
      const cur = leases.get(id);
      // A live lease of another owner is the one refusal; an expired one is free (the Mongo filter: until < now).
      if (cur && cur.owner !== owner && cur.untilMs >= nowMs) return false;
      leases.set(id, { owner, untilMs });
      return true;
    },
    async renew(owner, untilMs) {
      const held: string[] = [];
      for (const [id, lease] of leases) {
        if (lease.owner !== owner) continue;
        lease.untilMs = untilMs;
        held.push(id);
      }
      return held;
    },
    async release(id, owner) {
      if (leases.get(id)?.owner === owner) leases.delete(id);
    },
    async releaseAll(owner, nowMs) {
      for (const [id, lease] of leases) if (lease.owner === owner) leases.set(id, { owner: '', untilMs: nowMs - 1 });
    },
    async listExpired(nowMs, limit) {
      return [...leases]
        .filter(([, lease]) => lease.untilMs < nowMs)
        .sort(([, a], [, b]) => a.untilMs - b.untilMs)
        .slice(0, Math.max(0, limit))
        .map(([id]) => id);
    },
    async heldAmong(ids, nowMs) {
      return new Set(ids.filter((id) => (leases.get(id)?.untilMs ?? -Infinity) >= nowMs));
    },
  };
}
