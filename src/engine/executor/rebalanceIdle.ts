import type { ChainName } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import type { Intent, IntentError } from '../../domain/intent';
import { fromUnits, toUnits } from '../../domain/money';
import { depositAmount } from '../stepAmounts';
import { findSubTx, mintedOf } from '../../domain/txRecords';

/**
 * Where a rebalance's funds sit idle in the wallet now, per chain, in smallest
 * units: its idle sources, plus what its confirmed withdraws freed and its
 * mints delivered, less what its confirmed burns and supplies took. A
 * rebalance that stops part-way leaves its funds exactly there, never lost.
 */
export function rebalanceIdle(intent: Intent): Partial<Record<ChainName, bigint>> {
  const out: Partial<Record<ChainName, bigint>> = {};
  const add = (chain: ChainName, units: bigint): void => {
    out[chain] = (out[chain] ?? 0n) + units;
  };
  for (const s of intent.sources ?? []) if (s.protocol === null) add(s.chain, toUnits(s.amount, intent.asset));
  const confirmed = (index: number, kind: 'withdraw' | 'burn' | 'supply'): boolean => findSubTx(intent.results, index, kind)?.status === 'confirmed';
  for (const step of intent.executionPlan?.steps ?? []) {
    if (step.type === 'withdraw' && confirmed(step.index, 'withdraw')) add(step.chain, toUnits(step.amount, step.asset));
    if (step.type === 'bridge') {
      if (confirmed(step.index, 'burn')) add(step.from, -toUnits(step.amount, 'USDC'));
      const minted = mintedOf(intent.results, step.index);
      if (minted !== undefined) add(step.to, minted);
    }
    if (step.type === 'deposit' && confirmed(step.index, 'supply')) add(step.chain, -depositAmount(intent, step));
  }
  return out;
}

/** The rebalance's idle funds, per chain (smallest units, only chains holding some). */
function idleChains(intent: Intent): [ChainName, bigint][] {
  return Object.entries(rebalanceIdle(intent)).filter(([, units]) => units > 0n) as [ChainName, bigint][];
}

const where = (intent: Intent, idle: [ChainName, bigint][]): string =>
  idle.map(([chain, units]) => `${fromUnits(units, intent.asset)} ${intent.asset} on ${chain}`).join(', ');

const idleDetail = (intent: Intent, idle: [ChainName, bigint][]): Record<string, string> =>
  Object.fromEntries(idle.map(([chain, units]) => [chain, fromUnits(units, intent.asset)]));

/**
 * What a cancelled rebalance says about its funds, as a failed one does:
 * INTENT_CANCELLED with `details.idle` (decimal strings per chain) when the
 * steps it completed left funds idle in the wallet; undefined otherwise (the
 * funds are where they were, or the intent is no rebalance).
 */
export function cancelledWithIdleFunds(intent: Intent): IntentError | undefined {
  if (intent.action !== 'rebalance') return undefined;
  const idle = idleChains(intent);
  if (idle.length === 0) return undefined;
  const done = intent.results?.completedSteps ?? 0;
  return {
    code: 'INTENT_CANCELLED',
    message: `Cancelled after ${done} of ${intent.executionPlan?.steps.length ?? 0} steps. The rebalance's funds are idle in the wallet: ${where(intent, idle)}.`,
    details: { completedSteps: done, idle: idleDetail(intent, idle) },
  };
}

/**
 * A rebalance's step failure, saying where its funds now sit idle (in the
 * message and as `details.idle`, decimal strings per chain); other intents'
 * errors are returned as they are.
 */
export function withIdleFunds(intent: Intent, error: ServiceError): ServiceError {
  if (intent.action !== 'rebalance') return error;
  const idle = idleChains(intent);
  if (idle.length === 0) return error;
  return new ServiceError(error.code, `${error.message}. The rebalance's funds are idle in the wallet: ${where(intent, idle)}.`, {
    details: { ...error.details, idle: idleDetail(intent, idle) },
    cause: error,
  });
}
