import type { NonceRepo } from '../../ports/store';
import { takeNonce, type NonceCounter } from '../nonceCounter';

/** Nonce counters in memory: each take runs without an await, so concurrent takes in the process never share a nonce. */
export function createMemoryNonces(): NonceRepo {
  const counters = new Map<string, NonceCounter>();
  return {
    async take(key, chainPending, nowMs, gapMs) {
      const { nonce, after } = takeNonce(counters.get(key) ?? null, chainPending, nowMs, gapMs);
      counters.set(key, after);
      return nonce;
    },
    async chainStillSince(key, chainPending) {
      const cur = counters.get(key);
      return cur?.seen === chainPending ? cur.seenAt : null;
    },
    async giveBack(key, nonce) {
      const cur = counters.get(key);
      // Only the last nonce handed out: an older one given back would make the counter hand out a nonce still in use.
      if (cur?.next === nonce + 1) counters.set(key, { ...cur, next: nonce });
    },
  };
}
