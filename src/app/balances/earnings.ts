import type { AppDeps } from '../deps';
import type { TokenAsset } from '../../domain/chains';
import { fromUnits } from '../../domain/money';
import { ledgerOf, walletHoldings } from './getBalances';
import { booksOf, figuresOf, lifetimeInterest, positionKey, type PositionBook } from './principal';

/** A wallet's earnings on one asset (decimal strings in token units, exact). */
export interface AssetEarnings {
  /** What the user put into the asset's open positions and kept there. */
  principal: string;
  /**
   * The interest the asset earned while the service held it, in every market
   * it was in: open positions' interest (carried over by rebalances) plus what
   * withdraws took out as interest.
   */
  earned: string;
  /** What others supplied into the wallet's positions (not interest); absent when a position has no index in the ledger. */
  external?: string;
}

/**
 * What a wallet's lending positions of `asset` earned, summed over its chains
 * and protocols, closed positions included (their interest was realised).
 * Only positions the position ledger has seen supplied count; null when there
 * is none (or no such wallet). The caller has checked that the wallet is its
 * principal's.
 */
export async function earnedOf(
  deps: Pick<AppDeps, 'store' | 'chains' | 'caches' | 'ledgerWrites'>,
  walletId: string,
  asset: TokenAsset,
): Promise<AssetEarnings | null> {
  const wallet = await deps.store.wallets.getById(walletId);
  if (!wallet) return null;
  const [holdings, entries] = await Promise.all([walletHoldings(deps, wallet), ledgerOf(deps, walletId)]);
  const books = new Map<string, { book: PositionBook; amount: bigint; index?: bigint }>();
  for (const [key, book] of booksOf(entries.filter((e) => e.asset === asset))) books.set(key, { book, amount: 0n });
  for (const h of holdings) {
    for (const p of h.positions) {
      const kept = books.get(positionKey({ chain: h.chain, protocol: p.protocol, asset: p.asset }));
      if (kept) Object.assign(kept, { amount: p.amount, ...(p.index !== undefined && { index: p.index }) });
    }
  }
  if (books.size === 0) return null;
  let principal = 0n;
  let earned = 0n;
  let external: bigint | undefined = 0n;
  for (const { book, amount, index } of books.values()) {
    // a closed position (no balance) has nothing left to read an index for: its share is 0 at any index
    const figures = figuresOf(book, { amount, index: amount === 0n && book.scaled !== null ? 1n : index });
    principal += figures.principal;
    earned += lifetimeInterest(book, figures);
    external = external === undefined || figures.external === undefined ? undefined : external + figures.external;
  }
  return {
    principal: fromUnits(principal, asset),
    earned: fromUnits(earned, asset),
    ...(external !== undefined && { external: fromUnits(external, asset) }),
  };
}
