import type { AppDeps } from '../deps';
import type { TokenAsset } from '../../domain/chains';
import { fromUnits } from '../../domain/money';
import { walletHoldings } from './getBalances';
import { positionEarnings, principalsOf } from './principal';

/**
 * What a wallet's lending positions of `asset` earned, summed over its chains
 * and protocols: principal and earned as decimal strings in token units
 * (exact). Only positions the position ledger has seen supplied count; null
 * when there is none (or no such wallet). The caller has checked that the
 * wallet is its principal's.
 */
export async function earnedOf(
  deps: Pick<AppDeps, 'store' | 'chains' | 'caches'>,
  walletId: string,
  asset: TokenAsset,
): Promise<{ earned: string; principal: string } | null> {
  const wallet = await deps.store.wallets.getById(walletId);
  if (!wallet) return null;
  const [holdings, entries] = await Promise.all([walletHoldings(deps, wallet), deps.store.positionLedger.listByWallet(walletId)]);
  const principals = principalsOf(entries);
  let seen = false;
  let principal = 0n;
  let earned = 0n;
  for (const h of holdings) {
    for (const p of h.positions) {
      const e = p.asset === asset ? positionEarnings(principals, { chain: h.chain, protocol: p.protocol, asset: p.asset, amount: p.amount }) : null;
      if (!e) continue;
      seen = true;
      principal += e.principal;
      earned += e.earned;
    }
  }
  return seen ? { principal: fromUnits(principal, asset), earned: fromUnits(earned, asset) } : null;
}
