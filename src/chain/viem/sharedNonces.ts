import { createSystemClock, type Clock } from '../../domain/clock';
import type { NonceRepo } from '../../ports/store';

/** The allocator's key of an account on a chain (NonceRepo, src/ports/store.ts). */
export const nonceKey = (chainId: number, address: string): string => `${chainId}:${address.toLowerCase()}`;

/** A nonce held for one transaction. */
export interface HeldNonce {
  nonce: number;
  /** Gives the nonce back: its transaction was never broadcast, so it leaves no gap. */
  release(): Promise<void>;
}

export interface TakeNonceOptions {
  repo: NonceRepo;
  key: string;
  /** The chain's pending nonce of the account, read just before. */
  pending: number;
  readPending(): Promise<number>;
  gapMs: number;
  pollMs: number;
  /** The service's clock: the gap is measured and the polls wait on it (default: the system clock). */
  clock?: Pick<Clock, 'now' | 'setTimeout'>;
}

const sleep = (clock: Pick<Clock, 'setTimeout'>, ms: number) => new Promise<void>((r) => clock.setTimeout(r, ms));

/**
 * Takes the account's next nonce from the allocator, then waits until the
 * chain holds every nonce below it before handing it over: those went to
 * other instances a moment ago, and a node refuses (automine) or parks
 * (interval mining) a transaction past a missing nonce. A chain that stays
 * below it for `gapMs` (counted from when it stopped moving) has a gap (a nonce taken and never sent): ours is given
 * back and taken again, which the allocator answers by re-synchronising to
 * the chain, so this transaction fills the gap. Null when the chain went past
 * the nonce meanwhile (an outside sender used it): the caller takes again.
 */
export async function takeNonce(o: TakeNonceOptions): Promise<HeldNonce | null> {
  let pending = o.pending;
  const clock = o.clock ?? createSystemClock();
  const now = (): number => clock.now().getTime();
  let nonce = await o.repo.take(o.key, pending, now(), o.gapMs);
  try {
    // The gap is counted from when the chain stopped moving (as every taker saw it), not from this take.
    let stillSince = nonce > pending ? Math.min(now(), (await o.repo.chainStillSince(o.key, pending)) ?? now()) : now();
    while (nonce > pending) {
      if (now() - stillSince >= o.gapMs) {
        await o.repo.giveBack(o.key, nonce);
        nonce = await o.repo.take(o.key, pending, now(), o.gapMs);
        stillSince = now();
        continue;
      }
      await sleep(clock, o.pollMs);
      const read = await o.readPending();
      // the chain moves: the nonces below ours are arriving, no gap yet
      if (read !== pending) stillSince = now();
      pending = read;
    }
  } catch (e) {
    await o.repo.giveBack(o.key, nonce).catch(() => undefined);
    throw e;
  }
  if (nonce < pending) return null;
  return { nonce, release: () => o.repo.giveBack(o.key, nonce) };
}
