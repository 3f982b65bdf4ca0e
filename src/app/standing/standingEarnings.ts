import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { STABLECOINS, type TokenAsset } from '../../domain/chains';
import type { Intent } from '../../domain/intent';
import type { StandingIntent } from '../../domain/standingIntent';
import { earnedOf } from '../balances/earnings';
import { ownStanding } from './manageStanding';

/** What a standing intent's asset earned on the wallet, and what its moves cost (GET /standing-intents/:id/earnings). */
export interface StandingEarningsView {
  standingIntentId: string;
  walletId: string;
  asset: TokenAsset;
  /** What the wallet put into its positions of the asset and kept there, token units (null: no position the service supplied). */
  principal: string | null;
  /**
   * The interest the asset earned on the wallet in every market it was in
   * (the protocols' index growth of what the service supplied, interest
   * realised by withdraws and carried over by moves included), token units,
   * exact. Supplies made by others are not interest: they are `external`.
   */
  earned: string | null;
  /** What others supplied to the wallet's positions of the asset, token units (absent when a position's ledger has no index). */
  external?: string;
  /** Rebalance intents of the wallet's asset since the standing intent was created that spent anything (completed or failed). */
  moves: number;
  /** Their gas and CCTP fees, USD. */
  movesCostUsd: number;
  /** `earned` in USD (stablecoins 1:1; null for other assets, whose price the service does not keep per read). */
  earnedUsd: number | null;
  /** earnedUsd − movesCostUsd: what the strategy earned net of its costs. */
  netUsd: number | null;
}

const PAGE = 100;

/** The wallet's rebalances of the standing intent's asset created since it was, newest first (intents are listed newest first, so the walk stops at the first older one). */
async function rebalancesSince(deps: Pick<AppDeps, 'store'>, s: StandingIntent): Promise<Intent[]> {
  const out: Intent[] = [];
  for (let after: Intent | undefined; ;) {
    const page = await deps.store.intents.listByWallet(s.walletId, { limit: PAGE, ...(after && { after: { createdAt: after.createdAt, id: after.id } }) });
    for (const intent of page) {
      if (intent.createdAt < s.createdAt) return out;
      if (intent.action === 'rebalance' && intent.asset === s.asset && (intent.status === 'completed' || intent.status === 'failed')) out.push(intent);
    }
    if (page.length < PAGE) return out;
    after = page[page.length - 1];
  }
}

/** Gas (USD, as recorded from receipts) and the CCTP fees its mints kept back (USDC, so USD 1:1). */
function costUsd(intent: Intent): number {
  return (intent.results?.totalGasCostUsd ?? 0) + Number(intent.results?.bridgeFees ?? 0);
}

const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;

/**
 * A standing intent's earnings: the interest its asset earned on the wallet
 * in every market it was in (from the position ledger and the positions read
 * on chain: a move carries interest over, it never resets it), and what its
 * moves cost (gas, and the CCTP fees, which come off the moved principal and
 * so are counted here only), so the user sees what the strategy earned net of
 * its costs.
 */
export async function getStandingEarnings(
  deps: Pick<AppDeps, 'store' | 'chains' | 'caches'>,
  principal: Principal,
  standingIntentId: string,
): Promise<StandingEarningsView> {
  const s = await ownStanding(deps, principal, standingIntentId);
  const [earned, moves] = await Promise.all([earnedOf(deps, s.walletId, s.asset), rebalancesSince(deps, s)]);
  const movesCostUsd = round6(moves.reduce((sum, m) => sum + costUsd(m), 0));
  const earnedUsd = earned && STABLECOINS.includes(s.asset) ? round6(Number(earned.earned)) : null;
  return {
    standingIntentId: s.id,
    walletId: s.walletId,
    asset: s.asset,
    principal: earned?.principal ?? null,
    earned: earned?.earned ?? null,
    ...(earned?.external !== undefined && { external: earned.external }),
    moves: moves.length,
    movesCostUsd,
    earnedUsd,
    netUsd: earnedUsd === null ? null : round6(earnedUsd - movesCostUsd),
  };
}
