import type { AppDeps } from '../deps';
import type { Wallet } from '../../domain/types';
import type { IntentAction } from '../../domain/intent';
import { protocolAllowed, refuseRequest, toCents } from '../../domain/policy';
import type { DecisionInput } from '../../domain/standingIntent';
import { isServiceError } from '../../domain/errors/base';
import { effectivePolicy } from '../policies/walletPolicy';

/** The action a standing intent's moves are submitted as. */
const REBALANCE = 'rebalance' as IntentAction;

/**
 * What the wallet's spending policy allows a move into, decided with the
 * policy's own rules (refuseRequest: the action, the chain, the USD per
 * intent; and the protocols), so a refused target is a `skipped` decision
 * naming the rule instead of an intent refused later. The rolling daily cap
 * needs the store's reservation: the submitted intent decides it. Absent: no
 * policy governs the wallet. A wallet whose own policy is gone fails closed.
 * `assetUsd` null: the price is unknown, the USD cap is left to the submit.
 */
export async function allowedByPolicy(
  deps: Pick<AppDeps, 'store'>,
  wallet: Wallet,
  assetUsd: number | null,
  decimals: number,
): Promise<DecisionInput['allowed']> {
  let policy;
  try {
    policy = await effectivePolicy(deps, wallet);
  } catch (e) {
    if (isServiceError(e) && e.code === 'POLICY_NOT_FOUND') return () => ({ ok: false, rule: 'policyId' });
    throw e;
  }
  if (!policy) return undefined;
  const { rules } = policy;
  return (market, amount) => {
    const usd = assetUsd === null ? 0 : (Number(amount) / 10 ** decimals) * assetUsd;
    const refusal = refuseRequest(rules, { action: REBALANCE, chains: [market.chain], usdCents: toCents(usd) });
    if (refusal) return { ok: false, rule: refusal.rule };
    if (!protocolAllowed(rules, market.protocol)) return { ok: false, rule: 'protocols' };
    return { ok: true };
  };
}
