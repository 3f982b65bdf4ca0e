import type { ChainName } from '../domain/chains';
import type { ServiceError } from '../domain/errors/base';
import type { ChainHoldings } from '../ports/chain';
import type { ChainAmounts } from './planner/types';

/** A read that answers a value, or the ServiceError planning fails with. */
export type PlanningRead<T> = () => Promise<{ ok: true; value: T } | { ok: false; error: ServiceError }>;

/**
 * Holdings read again at most this many times in all: each extra read follows an intent of the wallet that moved
 * funds meanwhile, and the wallet runs one at a time, so a third read is already rare.
 */
const MAX_HOLDINGS_READS = 3;

/**
 * The wallet's holdings and what its executing intents hold back of them, read
 * so that no funds are planned twice: the reservations are read before the
 * holdings, and again after them.
 *
 * An executing intent's reservation goes only once its funds have moved on
 * chain (its transaction confirmed, then the intent final), and on another
 * instance that can happen at any moment. Holdings read before such a move
 * with reservations read after it would show the moved funds as free: that
 * is how a second engine planned the lend the first had just completed. Read
 * the other way round, a move between the reads can only make the holdings
 * smaller than the reservations say (never planning funds twice), and when
 * the second read of the reservations differs from the first, the holdings
 * are read again, so an intent that finished meanwhile does not hold its
 * funds twice either. No intent of the wallet starts executing meanwhile:
 * the planner holds the wallet (its actor, or the planning lease of
 * several engines).
 *
 * `market` reads the holdings with the rest of the market (one round of reads);
 * `holdings` reads them alone, for the next tries.
 */
export async function readHoldingsWithReservations<M extends { holdings: ChainHoldings[] }>(
  reservedNow: () => Promise<ChainAmounts>,
  market: PlanningRead<M>,
  holdings: PlanningRead<ChainHoldings[]>,
): Promise<{ ok: true; market: M; reserved: ChainAmounts } | { ok: false; error: ServiceError }> {
  let reserved = await reservedNow();
  const first = await market();
  if (!first.ok) return first;
  let read = first.value;
  for (let reads = 1; ; reads++) {
    const after = await reservedNow();
    if (sameAmounts(reserved, after)) return { ok: true, market: read, reserved };
    // Still moving after the last read: hold back the larger of the two, which never plans funds twice.
    if (reads === MAX_HOLDINGS_READS) return { ok: true, market: read, reserved: largerOf(reserved, after) };
    reserved = after;
    const again = await holdings();
    if (!again.ok) return again;
    read = { ...read, holdings: again.value };
  }
}

function sameAmounts(a: ChainAmounts, b: ChainAmounts): boolean {
  const chains = new Set([...Object.keys(a), ...Object.keys(b)] as ChainName[]);
  return [...chains].every((c) => (a[c] ?? 0n) === (b[c] ?? 0n));
}

function largerOf(a: ChainAmounts, b: ChainAmounts): ChainAmounts {
  const out: ChainAmounts = { ...a };
  for (const [chain, units] of Object.entries(b) as [ChainName, bigint][]) if (units > (out[chain] ?? 0n)) out[chain] = units;
  return out;
}
