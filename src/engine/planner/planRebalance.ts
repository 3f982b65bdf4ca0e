import { CHAINS, type ChainName, type TokenAsset } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { invalidChain } from '../../domain/errors/chain';
import { invalidRequest, type FieldIssue } from '../../domain/errors/request';
import type { Step } from '../../domain/intent';
// CCTP's own fee rule (fractional bps, rounded up): a plan never counts on more than arrives, and its maxFee covers the attested fee.
import { cctpFee } from '../../domain/cctpFee';
import { chainOrder, formatAmount, formatApy } from './format';
import { insufficient } from './insufficient';
import { canBridge, routeFeeBps } from './routes';
import { bridgeStep, depositStep, withdrawStep } from './steps';
import type { ChainAmounts, PlannedSource, PlannerInput, PlanResult, RateQuote } from './types';

/** What one source chain sends to the target: its sources' total, and the CCTP fee the mint keeps back. */
interface ChainBridge {
  from: ChainName;
  amount: bigint;
  fee: bigint;
  bps: number;
}

const sourceName = (s: PlannedSource): string => `${s.chain}/${s.protocol ?? 'idle'}`;

/** The target market among the rates, or the INVALID_CHAIN answer naming what is missing. */
function targetMarket(input: PlannerInput): RateQuote | ServiceError {
  const { toChain, toProtocol, asset } = input.request;
  const market = input.rates.find((r) => r.chain === toChain && r.protocol === toProtocol && r.asset === asset);
  if (market !== undefined) return market;
  return new ServiceError('INVALID_CHAIN', `There is no ${toProtocol} market for ${asset} on ${toChain}`, {
    details: { chain: toChain, protocol: toProtocol, asset, reason: `no ${toProtocol} lending market for ${asset}` },
  });
}

/**
 * The first source its position or idle balance no longer covers (several
 * idle sources of one chain draw on the same balance), as INSUFFICIENT_FUNDS.
 */
function uncovered(input: PlannerInput, sources: readonly PlannedSource[]): PlanResult | null {
  const { asset } = input.request;
  const drawn = new Map<string, bigint>();
  for (const s of sources) {
    const key = sourceName(s);
    const want = (drawn.get(key) ?? 0n) + s.amount;
    drawn.set(key, want);
    const held = s.protocol === null ? (input.balances[s.chain] ?? 0n) : (input.positions[s.chain]?.[s.protocol] ?? 0n);
    if (held >= want) continue;
    const perChain: ChainAmounts =
      s.protocol === null
        ? input.balances
        : Object.fromEntries(Object.entries(input.positions).map(([chain, byProtocol]) => [chain, byProtocol?.[s.protocol!] ?? 0n]));
    return insufficient({
      required: want,
      available: held,
      perChain,
      asset,
      extra: {
        chain: s.chain,
        source: s.protocol ?? 'idle',
        reason: `the ${s.protocol === null ? 'idle balance' : `${s.protocol} position`} on ${s.chain} no longer covers the source`,
      },
    });
  }
  return null;
}

/** One bridge per source chain other than the target's, carrying all of that chain's sources, or why a chain cannot bridge there. */
function bridgesOf(input: PlannerInput, sources: readonly PlannedSource[], to: ChainName): ChainBridge[] | ServiceError {
  const { asset } = input.request;
  const perChain = new Map<ChainName, bigint>();
  for (const s of sources) if (s.chain !== to) perChain.set(s.chain, (perChain.get(s.chain) ?? 0n) + s.amount);
  const min = input.minBridgeAmount ?? 1n;
  const issues: FieldIssue[] = [];
  const bridges: ChainBridge[] = [];
  for (const [from, amount] of [...perChain].sort(([a], [b]) => chainOrder(a) - chainOrder(b))) {
    if (CHAINS[from].testnet !== CHAINS[to].testnet) {
      return invalidChain(to, { fromChain: from, reason: 'cannot bridge between a main network and a test network' });
    }
    if (!canBridge(asset, from, to)) issues.push({ path: 'sources', message: `${asset} on ${from} cannot be bridged to ${to} (CCTP moves USDC only)` });
    else if (amount < min) issues.push({ path: 'sources', message: `what leaves ${from} is below the minimum bridge amount ${formatAmount(min, asset)}` });
    const bps = routeFeeBps(input.routeFees, from, to);
    bridges.push({ from, amount, fee: cctpFee(amount, bps), bps });
  }
  return issues.length > 0 ? invalidRequest(issues) : bridges;
}

/** "withdraw 60 USDC from aave-v3 on arbitrum-sepolia, 40 USDC idle on base-sepolia". */
function sourcesText(sources: readonly PlannedSource[], asset: TokenAsset): string {
  return sources
    .map((s) =>
      s.protocol === null ? `${formatAmount(s.amount, asset)} idle on ${s.chain}` : `${formatAmount(s.amount, asset)} from ${s.protocol} on ${s.chain}`,
    )
    .join(', ');
}

function bridgesText(bridges: readonly ChainBridge[], to: ChainName, asset: TokenAsset): string {
  if (bridges.length === 0) return `Every source is on ${to}: no bridge needed.`;
  const parts = bridges.map(
    (b) => `${formatAmount(b.amount, asset)} from ${b.from}${b.fee === 0n ? ' (no route fee)' : ` (route fee ${formatAmount(b.fee, asset)}, ${b.bps} bps)`}`,
  );
  return `Bridging to ${to} via CCTP: ${parts.join(', ')}.`;
}

/**
 * Plans a rebalance (`rebalance`): one withdraw per positioned source, one
 * CCTP bridge per source chain other than the target's (its withdrawn and
 * idle funds together), then one deposit into the target market of what
 * arrives (the sources less the bridges' fees). Each source must still be
 * covered by its position or idle balance (else INSUFFICIENT_FUNDS, nothing
 * moved), and the target market must exist for the asset (else INVALID_CHAIN).
 */
export function planRebalance(input: PlannerInput): PlanResult {
  const { amount: total, asset, toChain: to, toProtocol, sources = [] } = input.request;
  const issues: FieldIssue[] = [];
  if (to === undefined) issues.push({ path: 'toChain', message: 'toChain is required for rebalance' });
  if (toProtocol === undefined) issues.push({ path: 'toProtocol', message: 'toProtocol is required for rebalance' });
  if (sources.length === 0) issues.push({ path: 'sources', message: 'sources is required for rebalance' });
  const sum = sources.reduce((acc, s) => acc + s.amount, 0n);
  if (sources.length > 0 && sum !== total) issues.push({ path: 'amount', message: "amount must be the sum of the sources' amounts" });
  if (sources.some((s) => s.amount <= 0n)) issues.push({ path: 'sources', message: 'every source must move a positive amount' });
  if (issues.length > 0 || to === undefined) return { ok: false, error: invalidRequest(issues) };

  const market = targetMarket(input);
  if (market instanceof ServiceError) return { ok: false, error: market };
  const short = uncovered(input, sources);
  if (short !== null) return short;
  const bridges = bridgesOf(input, sources, to);
  if (bridges instanceof ServiceError) return { ok: false, error: bridges };

  const positioned = sources.filter((s): s is PlannedSource & { protocol: NonNullable<PlannedSource['protocol']> } => s.protocol !== null);
  const sandboxOnlyOf = (chain: ChainName, protocol: string) =>
    input.rates.find((r) => r.chain === chain && r.protocol === protocol && r.asset === asset)?.sandboxOnly;
  const steps: Step[] = positioned.map((s, i) => withdrawStep(i, s.chain, s.protocol, asset, s.amount, sandboxOnlyOf(s.chain, s.protocol)));
  for (const b of bridges) steps.push(bridgeStep(steps.length, b.from, to, asset, b.amount, b.fee));
  const arrives = total - bridges.reduce((acc, b) => acc + b.fee, 0n);
  steps.push(depositStep(steps.length, to, market.protocol, asset, arrives, market.sandboxOnly));

  const deposit =
    arrives === total
      ? `Depositing ${formatAmount(arrives, asset)}.`
      : `Depositing ${formatAmount(arrives, asset)} of the ${formatAmount(total, asset)} moved after route fees.`;
  return {
    ok: true,
    plan: {
      strategy: 'rebalance',
      steps,
      reasoning: `Rebalance ${formatAmount(total, asset)} into ${market.protocol} on ${to} (APY ${formatApy(market.apy)}) from ${sourcesText(sources, asset)}. ${bridgesText(bridges, to, asset)} ${deposit}`,
    },
    amount: arrives,
    apy: market.apy,
  };
}
