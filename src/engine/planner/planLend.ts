import { supportsAsset, type ChainName, type TokenAsset } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { invalidChain, unsupportedAsset } from '../../domain/errors/chain';
import type { Step, Strategy } from '../../domain/intent';
import { fromUnits } from '../../domain/money';
import { consolidate, type PlannedBridge } from './consolidate';
import { formatAmount, formatApy } from './format';
import { insufficient } from './insufficient';
import { compareRates, isTie, rankRates } from './rates';
import { netReturnReasoning, rankByNetReturn } from './netReturn';
import { bridgeStep, depositStep } from './steps';
import type { PlannerInput, PlanResult, RateQuote } from './types';

const noRates = (asset: TokenAsset): ServiceError =>
  new ServiceError('SERVICE_UNAVAILABLE', `No lending rates are available for ${asset}`, { details: { asset } });

/** "Lend 100 USDC. USDC APY: a > b. Best: …" — the part of the reasoning about where to lend. */
function targetReasoning(input: PlannerInput, ranked: RateQuote[], best: RateQuote, chain: ChainName | undefined, byNetReturn = false): string {
  const { amount, asset } = input.request;
  const head = `Lend ${formatAmount(amount, asset)}`;
  const tie = isTie(ranked) ? ' (APY tie: preferring the market whose chain already holds the most funds)' : '';
  if (chain !== undefined) {
    const protocols = compareRates(ranked, (r) => r.protocol);
    return `${head} on ${chain} (chosen by the client). ${asset} APY on ${chain}: ${protocols}. Using ${best.protocol} at ${formatApy(best.apy)}${tie}.`;
  }
  const markets = compareRates(ranked, (r) => `${r.chain}/${r.protocol}`);
  if (byNetReturn)
    return `${head}. ${asset} APY: ${markets}. Chosen by net return (optimize: netReturn): ${best.chain}/${best.protocol} at ${formatApy(best.apy)}.`;
  return `${head}. ${asset} APY: ${markets}. Best: ${best.chain}/${best.protocol} at ${formatApy(best.apy)}${tie}.`;
}

function bridgeReasoning(bridges: PlannedBridge[], local: bigint, target: ChainName, asset: TokenAsset): string {
  const moves = bridges
    .map((b) => `${formatAmount(b.amount, asset)} from ${b.from} (${b.fee === 0n ? 'no fee' : `fee ${formatAmount(b.fee, asset)}, ${b.bps} bps`})`)
    .join(', ');
  const count = bridges.length === 1 ? '1 bridge' : `${bridges.length} bridges`;
  const here = local === 0n ? `No ${asset} on ${target} yet` : `Using ${formatAmount(local, asset)} already on ${target}`;
  return `${here}; ${count} needed via CCTP: ${moves}.`;
}

/**
 * Plans a lend: the best-APY market for the asset (best protocol on `chain`
 * when the client named one), then funds already there, else consolidation by
 * bridges (USDC only), then one deposit of what arrives.
 */
export function planLend(input: PlannerInput): PlanResult {
  const { request, balances, rates } = input;
  const { amount: required, asset, chain } = request;
  if (chain !== undefined && !supportsAsset(chain, asset)) return { ok: false, error: unsupportedAsset(asset, chain) };

  const ranked = rankRates(rates, asset, balances, chain);
  // opt-in: the market that nets the most over the horizon once route fees and gas are paid (none reachable: the APY choice fails as usual)
  const returns = input.optimize ? rankByNetReturn(input, ranked, input.optimize) : [];
  const best = ranked.find((r) => returns[0] !== undefined && r.chain === returns[0].chain && r.protocol === returns[0].protocol) ?? ranked[0];
  if (best === undefined) {
    return { ok: false, error: chain === undefined ? noRates(asset) : invalidChain(chain, { asset, reason: `no lending market for ${asset}` }) };
  }

  const gathered = consolidate({
    target: best.chain,
    required,
    asset,
    balances,
    routeFees: input.routeFees,
    minBridgeAmount: input.minBridgeAmount ?? 1n,
  });
  if (!gathered.ok || gathered.arrives === 0n) {
    const extra: Record<string, string> = { chain: best.chain, protocol: best.protocol };
    if (!gathered.ok && gathered.reason === 'minimum') extra.minBridgeAmount = fromUnits(input.minBridgeAmount ?? 1n, asset);
    if (asset !== 'USDC') extra.reason = `${asset} cannot be bridged; only funds already on ${best.chain} count`;
    return insufficient({ required, available: gathered.ok ? 0n : gathered.available, perChain: balances, asset, extra });
  }

  const { bridges, local, arrives } = gathered;
  const steps: Step[] = bridges.map((b, i) => bridgeStep(i, b.from, best.chain, asset, b.amount, b.fee));
  steps.push(depositStep(bridges.length, best.chain, best.protocol, asset, arrives, best.sandboxOnly));

  let strategy: Strategy;
  let funding: string;
  if (bridges.length === 0) {
    strategy = chain === undefined ? 'no-bridge' : 'direct-deposit';
    funding = `${formatAmount(required, asset)} already on ${best.chain}: no bridge needed.`;
  } else {
    strategy = bridges.length === 1 ? 'single-bridge' : 'multi-bridge';
    funding = bridgeReasoning(bridges, local, best.chain, asset);
  }
  const deposit =
    arrives === required
      ? `Depositing ${formatAmount(arrives, asset)}.`
      : `Depositing ${formatAmount(arrives, asset)} of the ${formatAmount(required, asset)} requested after route fees.`;
  return {
    ok: true,
    plan: {
      strategy,
      steps,
      reasoning: `${targetReasoning(input, ranked, best, chain, input.optimize !== undefined)}${input.optimize ? ` ${netReturnReasoning(returns, input.optimize.horizonDays)}` : ''} ${funding} ${deposit}`,
    },
    amount: arrives,
    apy: best.apy,
  };
}
