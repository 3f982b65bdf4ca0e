import type { PaymentLockRepo } from '../../ports/store';

/** Per-payer locks in memory (one process): the same lease rule as MongoDB, expired locks dropped as others are taken. */
export function createMemoryPaymentLocks(): PaymentLockRepo {
  const locks = new Map<string, { owner: string; untilMs: number }>();
  return {
    async acquire(key, owner, nowMs, untilMs) {
      const cur = locks.get(key);
      // A live lock of another owner is the one refusal; an expired one is free (the Mongo filter: until < now).
      if (cur && cur.owner !== owner && cur.untilMs >= nowMs) return false;
      for (const [k, lock] of locks) if (lock.untilMs < nowMs) locks.delete(k);
      locks.set(key, { owner, untilMs });
      return true;
    },
    async release(key, owner) {
      if (locks.get(key)?.owner === owner) locks.delete(key);
    },
  };
}
