import type { Step } from '../domain/intent';
import type { ChainPort, Protocol } from '../ports/chain';

/**
 * The plan's steps with each deposit that can supply with the wallet's
 * EIP-2612 permit marked `permit` (one transaction instead of approve +
 * supply): on a chain of plain transactions (a `7702` chain batches approve
 * and supply into its one operation anyway) whose market takes a permit, as
 * the chain port says. Decided once, at planning and in the preview alike;
 * the intent keeps the mark, so execution and a restart follow it.
 */
export function withSupplyPermits(steps: readonly Step[], chains: Pick<ChainPort, 'accountModel' | 'supplyPermit'>): Step[] {
  return steps.map((s) => {
    if (s.type !== 'deposit' || (chains.accountModel?.(s.chain) ?? 'plain') !== 'plain') return s;
    return chains.supplyPermit?.(s.chain, s.protocol as Protocol, s.asset) ? { ...s, permit: true } : s;
  });
}
