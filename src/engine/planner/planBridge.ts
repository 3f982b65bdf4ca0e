import { CHAINS } from '../../domain/chains';
import { invalidChain } from '../../domain/errors/chain';
import { invalidRequest, type FieldIssue } from '../../domain/errors/request';
import { formatAmount } from './format';
import { insufficient } from './insufficient';
import { routeFeeBps } from './routes';
// CCTP's own fee rule (fractional bps, rounded up): a plan never counts on more than arrives, and its maxFee covers the attested fee.
import { cctpFee } from '../../domain/cctpFee';
import { bridgeStep } from './steps';
import type { PlannerInput, PlanResult } from './types';

/** Plans a bridge (`single-bridge`): one CCTP bridge step; the balance on `fromChain` must cover the amount. */
export function planBridge(input: PlannerInput): PlanResult {
  const { amount: required, asset, fromChain: from, toChain: to } = input.request;
  const issues: FieldIssue[] = [];
  if (from === undefined) issues.push({ path: 'fromChain', message: 'fromChain is required for bridge' });
  if (to === undefined) issues.push({ path: 'toChain', message: 'toChain is required for bridge' });
  if (from !== undefined && from === to) issues.push({ path: 'toChain', message: 'toChain must differ from fromChain' });
  if (asset !== 'USDC') issues.push({ path: 'asset', message: 'only USDC can be bridged (CCTP)' });
  const min = input.minBridgeAmount ?? 1n;
  if (required < min) issues.push({ path: 'amount', message: `amount is below the minimum bridge amount ${formatAmount(min, asset)}` });
  if (issues.length > 0 || from === undefined || to === undefined) return { ok: false, error: invalidRequest(issues) };
  if (CHAINS[from].testnet !== CHAINS[to].testnet) {
    return { ok: false, error: invalidChain(to, { fromChain: from, reason: 'cannot bridge between a main network and a test network' }) };
  }

  const balance = input.balances[from] ?? 0n;
  if (balance < required) return insufficient({ required, available: balance, perChain: input.balances, asset, extra: { chain: from } });

  const bps = routeFeeBps(input.routeFees, from, to);
  const fee = cctpFee(required, bps);
  const arrives = required - fee;
  const feeText = fee === 0n ? 'no route fee' : `route fee ${formatAmount(fee, asset)} (${bps} bps)`;
  return {
    ok: true,
    plan: {
      strategy: 'single-bridge',
      steps: [bridgeStep(0, from, to, asset, required, fee)],
      reasoning: `Bridge ${formatAmount(required, asset)} from ${from} to ${to} via CCTP (burn and mint); ${feeText}; ${formatAmount(arrives, asset)} arrives.`,
    },
    amount: arrives,
    apy: null,
  };
}
