/** The stored state of one nonce counter (NonceRepo), the same on every adapter. */
export interface NonceCounter {
  /** The next nonce to hand out. */
  next: number;
  /** The last chain pending nonce a caller reported. */
  seen: number;
  /** When `seen` last changed (ms since the epoch). */
  seenAt: number;
}

/**
 * One `NonceRepo.take` as a pure step: the nonce handed out and the counter
 * after it. The counter follows the chain when the chain is ahead; when the
 * counter is ahead while the chain's pending nonce has stood still for
 * `gapMs`, the nonces in between were never sent (a gap), and the counter
 * starts again from the chain. `seenAt` only moves when the chain does (or
 * on a re-synchronisation), so the gap is measured from the chain's last move,
 * not from the last take.
 */
export function takeNonce(cur: NonceCounter | null, chainPending: number, nowMs: number, gapMs: number): { nonce: number; after: NonceCounter } {
  if (cur === null) return { nonce: chainPending, after: { next: chainPending + 1, seen: chainPending, seenAt: nowMs } };
  const chainStill = cur.seen === chainPending;
  const stuck = cur.next > chainPending && chainStill && nowMs - cur.seenAt >= gapMs;
  const nonce = stuck ? chainPending : Math.max(cur.next, chainPending);
  return { nonce, after: { next: nonce + 1, seen: chainPending, seenAt: chainStill && !stuck ? cur.seenAt : nowMs } };
}
