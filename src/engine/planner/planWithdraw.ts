import { CHAIN_NAMES } from '../../domain/chains';
import { invalidRequest } from '../../domain/errors/request';
import { formatAmount, formatApy } from './format';
import { insufficient } from './insufficient';
import { withdrawStep } from './steps';
import type { ChainAmounts, PlannerInput, PlanResult } from './types';

/** Total supplied per chain across protocols (error details). */
function positionsPerChain(input: PlannerInput): ChainAmounts {
  const out: ChainAmounts = {};
  for (const chain of CHAIN_NAMES) {
    const byProtocol = input.positions[chain];
    if (byProtocol !== undefined) out[chain] = Object.values(byProtocol).reduce((sum, v) => sum + v, 0n);
  }
  return out;
}

/**
 * Plans a withdraw (`direct-withdraw`): one withdraw step from a position on
 * `chain` that covers the amount. With several, the lowest-APY position is
 * drawn first so the best-earning one keeps working.
 */
export function planWithdraw(input: PlannerInput): PlanResult {
  const { amount: required, asset, chain } = input.request;
  if (chain === undefined) return { ok: false, error: invalidRequest([{ path: 'chain', message: 'chain is required for withdraw' }]) };

  const marketOf = (protocol: string) => input.rates.find((r) => r.chain === chain && r.protocol === protocol && r.asset === asset);
  const apyOf = (protocol: string): number | null => marketOf(protocol)?.apy ?? null;
  const positions = Object.entries(input.positions[chain] ?? {})
    .filter(([, supplied]) => supplied > 0n)
    .map(([protocol, supplied]) => ({ protocol, supplied, apy: apyOf(protocol) }))
    .sort((a, b) => (a.apy ?? 0) - (b.apy ?? 0) || (a.supplied !== b.supplied ? (a.supplied > b.supplied ? -1 : 1) : a.protocol.localeCompare(b.protocol)));

  const source = positions.find((p) => p.supplied >= required);
  if (source === undefined) {
    const largest = positions.reduce((max, p) => (p.supplied > max ? p.supplied : max), 0n);
    return insufficient({ required, available: largest, perChain: positionsPerChain(input), asset, extra: { chain } });
  }

  const apyText = source.apy === null ? 'APY unknown' : `APY ${formatApy(source.apy)}`;
  const others = positions.filter((p) => p !== source).map((p) => `${p.protocol} ${p.apy === null ? 'APY unknown' : formatApy(p.apy)}`);
  const kept = others.length > 0 ? ` Keeping ${others.join(', ')} (higher-yield positions are drawn last).` : '';
  return {
    ok: true,
    plan: {
      strategy: 'direct-withdraw',
      steps: [withdrawStep(0, chain, source.protocol, asset, required, marketOf(source.protocol)?.sandboxOnly)],
      reasoning: `Withdraw ${formatAmount(required, asset)} from ${source.protocol} on ${chain} (position ${formatAmount(source.supplied, asset)}, ${apyText}).${kept}`,
    },
    amount: required,
    apy: source.apy,
  };
}
