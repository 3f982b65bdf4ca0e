import type { BridgeStep, DepositStep, Intent } from '../domain/intent';
import { toUnits } from '../domain/money';
import { mintedOf } from '../domain/txRecords';

/** The CCTP fee planned for a bridge step (its burn's maxFee), smallest units; `fee` on steps planned before maxFee was recorded. */
export const plannedFeeOf = (step: BridgeStep): bigint => toUnits(step.maxFee ?? step.fee ?? '0', 'USDC');

/**
 * What a deposit supplies: its planned amount, with each earlier bridge into
 * its chain counted at what its mint delivered instead of what was planned
 * to arrive. The fee a mint keeps back is the attestation service's, fixed
 * after planning (at most the planned one, the burn's maxFee), so the deposit
 * supplies what arrived rather than an amount the wallet may not hold.
 * Once the step is completed, its amount already is what it supplied.
 * `arriving`: what the mints of bridge steps (by index) not yet mined will
 * deliver, read from their attested messages, for a deposit sent in the
 * same user operation as those mints.
 */
export function depositAmount(intent: Intent, step: DepositStep, arriving?: ReadonlyMap<number, bigint>): bigint {
  let amount = toUnits(step.amount, step.asset);
  // A completed deposit's amount is what it supplied (finishStep writes it back).
  if (step.status === 'completed') return amount;
  for (const s of intent.executionPlan?.steps ?? []) {
    if (s.type !== 'bridge' || s.to !== step.chain || s.index >= step.index || step.asset !== 'USDC') continue;
    const minted = mintedOf(intent.results, s.index) ?? arriving?.get(s.index);
    if (minted !== undefined) amount += minted - (toUnits(s.amount, 'USDC') - plannedFeeOf(s));
  }
  return amount;
}
