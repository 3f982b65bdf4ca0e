import type { ChainName, TokenAsset } from '../../domain/chains';
import type { Intent } from '../../domain/intent';
import { toUnits } from '../../domain/money';
import { depositAmount } from '../stepAmounts';
import { findSubTx } from '../../domain/txRecords';
import type { ChainAmounts } from './types';

/**
 * What executing intents of a wallet have committed of `asset` and not yet
 * moved, per chain, in smallest units: a burn not confirmed holds its amount
 * on the source chain; a supply not confirmed holds its amount on its chain,
 * less what the same intent's unfinished bridges and withdraws will bring
 * there (that part is not in the balance yet). A deposit after a minted
 * bridge holds what the mint delivered, not what the plan expected. Planning subtracts it from the balances, so two
 * intents never plan against the same tokens, whatever the order of their
 * transactions (the wallet actor already runs one intent at a time; this
 * holds across instances and restarts too).
 */
export function reservedBalances(others: readonly Intent[], asset: TokenAsset): ChainAmounts {
  const total: ChainAmounts = {};
  for (const intent of others) {
    const net: Partial<Record<ChainName, bigint>> = {};
    const add = (chain: ChainName, units: bigint): void => {
      net[chain] = (net[chain] ?? 0n) + units;
    };
    for (const step of intent.executionPlan?.steps ?? []) {
      if (step.status === 'completed' || step.status === 'failed') continue;
      const done = (kind: 'burn' | 'mint' | 'supply' | 'withdraw'): boolean => findSubTx(intent.results, step.index, kind)?.status === 'confirmed';
      if (step.type === 'bridge' && asset === 'USDC') {
        const amount = toUnits(step.amount, 'USDC');
        const arriving = amount - toUnits(step.fee ?? '0', 'USDC');
        if (!done('burn')) add(step.from, amount);
        if (!done('mint')) add(step.to, -arriving);
      } else if (step.type === 'deposit' && step.asset === asset && !done('supply')) {
        // what it will supply: the planned amount with each mint into its chain at what it delivered
        add(step.chain, depositAmount(intent, step));
      } else if (step.type === 'withdraw' && step.asset === asset && !done('withdraw')) {
        // a rebalance's later bridge spends what this withdraw brings: not in the balance yet, so not held from it
        add(step.chain, -toUnits(step.amount, asset));
      }
    }
    for (const [chain, units] of Object.entries(net) as [ChainName, bigint][]) {
      if (units > 0n) total[chain] = (total[chain] ?? 0n) + units;
    }
  }
  return total;
}

/** `balances` less `reserved`, never below zero. */
export function lessReserved(balances: ChainAmounts, reserved: ChainAmounts): ChainAmounts {
  const out: ChainAmounts = {};
  for (const [chain, units] of Object.entries(balances) as [ChainName, bigint][]) {
    const free = units - (reserved[chain] ?? 0n);
    if (free > 0n) out[chain] = free;
  }
  return out;
}
