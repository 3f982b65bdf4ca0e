import type { ChainName } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import type { Intent } from '../../domain/intent';
import { fromUnits, toUnits } from '../../domain/money';
import { depositAmount } from './subTransactions';
import { findSubTx, mintedOf } from './txRecords';

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

/**
 * A rebalance's step failure, saying where its funds now sit idle (in the
 * message and as `details.idle`, decimal strings per chain); other intents'
 * errors are returned as they are.
 */
export function withIdleFunds(intent: Intent, error: ServiceError): ServiceError {
  if (intent.action !== 'rebalance') return error;
  const idle = Object.entries(rebalanceIdle(intent)).filter(([, units]) => units > 0n) as [ChainName, bigint][];
  if (idle.length === 0) return error;
  const where = idle.map(([chain, units]) => `${fromUnits(units, intent.asset)} ${intent.asset} on ${chain}`).join(', ');
  return new ServiceError(error.code, `${error.message}. The rebalance's funds are idle in the wallet: ${where}.`, {
    details: { ...error.details, idle: Object.fromEntries(idle.map(([chain, units]) => [chain, fromUnits(units, intent.asset)])) },
    cause: error,
  });
}
