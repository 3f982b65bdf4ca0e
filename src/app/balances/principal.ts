import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';
import type { PositionLedgerEntry } from '../../ports/store';

/** A lending position: one wallet's supply of one asset to one protocol on one chain. */
export interface PositionRef {
  chain: ChainName;
  protocol: LendingProtocol;
  asset: TokenAsset;
}

/** The key of a position within one wallet. */
export const positionKey = (p: PositionRef): string => `${p.chain}/${p.protocol}/${p.asset}`;

/**
 * The principal of one position after one ledger entry (smallest units).
 * A deposit adds what it supplied. A withdraw takes the accrued interest
 * first and the principal only for the rest: with the position read just
 * after it, that is min(principal, position after) (when the withdraw took
 * no more than the interest, the position after is still at least the
 * principal; when it took more, what remains is all principal). A withdraw
 * of everything leaves nothing, so the principal goes to 0. Without that
 * reading (the chain could not be read), the withdrawn amount comes off the
 * principal, never below 0: the interest it took then still shows as earned.
 */
export function applyEntry(principal: bigint, entry: Pick<PositionLedgerEntry, 'kind' | 'amount' | 'positionAfter'>): bigint {
  if (entry.kind === 'deposit') return principal + BigInt(entry.amount);
  if (entry.positionAfter !== undefined) {
    const after = BigInt(entry.positionAfter);
    return after < principal ? after : principal;
  }
  const left = principal - BigInt(entry.amount);
  return left > 0n ? left : 0n;
}

/** Each position's principal from a wallet's ledger entries (in ledger order); a position without entries is absent. */
export function principalsOf(entries: readonly PositionLedgerEntry[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const e of entries) {
    const key = positionKey(e);
    out.set(key, applyEntry(out.get(key) ?? 0n, e));
  }
  return out;
}

/**
 * What a position earned: its balance less its principal (smallest units).
 * Never below 0: right after a supply a protocol may report one unit less
 * than was supplied (Aave keeps a scaled balance, balance = scaled × index,
 * each rounded to the unit), and a withdraw made outside the service leaves
 * the ledger's principal above the position; neither is a loss of interest.
 */
export function earnedOn(balance: bigint, principal: bigint): bigint {
  return balance > principal ? balance - principal : 0n;
}

/** A position's principal and earned (smallest units), or null when the ledger has no entry of it (funds the service never saw supplied: no guess). */
export function positionEarnings(
  principals: ReadonlyMap<string, bigint>,
  position: PositionRef & { amount: bigint },
): { principal: bigint; earned: bigint } | null {
  const principal = principals.get(positionKey(position));
  return principal === undefined ? null : { principal, earned: earnedOn(position.amount, principal) };
}
