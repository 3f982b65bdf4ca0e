import { CHAIN_NAMES, type ChainName, type TokenAsset } from '../../domain/chains';
import { chainOrder } from './format';
import { canBridge, routeFeeBps } from './routes';
// CCTP's own fee rule (fractional bps, rounded up): a plan never counts on more than arrives, and its maxFee covers the attested fee.
import { cctpFee } from '../../domain/cctpFee';
import type { ChainAmounts, RouteFees } from './types';

/** One bridge of a consolidation. */
export interface PlannedBridge {
  from: ChainName;
  /** Leaves `from`. */
  amount: bigint;
  /** Taken out of `amount` on the way. */
  fee: bigint;
  bps: number;
}

/** Where to gather, how much, and from what. */
export interface ConsolidateParams {
  target: ChainName;
  required: bigint;
  asset: TokenAsset;
  balances: ChainAmounts;
  routeFees?: RouteFees;
  minBridgeAmount: bigint;
}

/** How the funds are gathered, or why they cannot be. */
export type Consolidation =
  | { ok: true; local: bigint; bridges: PlannedBridge[]; arrives: bigint }
  /** `funds`: not enough across reachable chains; `minimum`: enough, but only through bridges below the minimum. */
  | { ok: false; available: bigint; reason: 'funds' | 'minimum' };

const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * Gathers `required` on `target`: funds already there first, then bridges from
 * the largest balances (fewest bridges). The wallet spends exactly `required`;
 * route fees come out of it, so `arrives` ≤ `required`. Balances under the
 * minimum bridge amount are dust and are left where they are.
 */
export function consolidate({ target, required, asset, balances, routeFees, minBridgeAmount }: ConsolidateParams): Consolidation {
  const local = balances[target] ?? 0n;
  if (local >= required) return { ok: true, local: required, bridges: [], arrives: required };

  const min = minBridgeAmount > 0n ? minBridgeAmount : 1n;
  const sources = CHAIN_NAMES.filter((c) => canBridge(asset, c, target))
    .map((from) => ({ from, balance: balances[from] ?? 0n, bps: routeFeeBps(routeFees, from, target) }))
    .filter((s) => s.balance >= min)
    .sort((a, b) => (a.balance !== b.balance ? (a.balance > b.balance ? -1 : 1) : a.bps - b.bps || chainOrder(a.from) - chainOrder(b.from)));

  const available = sources.reduce((sum, s) => sum + s.balance, local);
  if (available < required) return { ok: false, available, reason: 'funds' };

  const amounts: bigint[] = [];
  let missing = required - local;
  for (const s of sources) {
    if (missing === 0n) break;
    const take = minOf(s.balance, missing);
    amounts.push(take);
    missing -= take;
  }

  // The last bridge may fall under the minimum: raise it, drawing less from local funds, then from earlier bridges.
  let localUsed = local;
  const last = amounts.length - 1;
  let deficit = min - (amounts[last] ?? min);
  if (deficit > 0n) {
    amounts[last] = min;
    const fromLocal = minOf(deficit, localUsed);
    localUsed -= fromLocal;
    deficit -= fromLocal;
    for (let i = last - 1; i >= 0 && deficit > 0n; i--) {
      const spare = (amounts[i] ?? min) - min;
      const cut = minOf(spare, deficit);
      amounts[i] = (amounts[i] ?? min) - cut;
      deficit -= cut;
    }
    if (deficit > 0n) return { ok: false, available: local, reason: 'minimum' };
  }

  const bridges: PlannedBridge[] = [];
  amounts.forEach((amount, i) => {
    const s = sources[i];
    if (s !== undefined) bridges.push({ from: s.from, amount, fee: cctpFee(amount, s.bps), bps: s.bps });
  });
  const arrives = bridges.reduce((sum, b) => sum + b.amount - b.fee, localUsed);
  return { ok: true, local: localUsed, bridges, arrives };
}
