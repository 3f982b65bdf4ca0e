import type { Address } from 'viem';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { assertChainsUsable } from '../chainAccess';
import { getWalletById } from '../wallets/getWallet';
import { effectivePolicy } from '../policies/walletPolicy';
import { askedOf, checkWalletChains, namedChains } from './createIntent';
import type { CreateIntentCommand } from '../../domain/commands';
import type { AccountModel, ChainName, TokenAsset } from '../../domain/chains';
import { policyViolation } from '../../domain/errors/policy';
import { BRIDGE_SPEEDS, EXPECTED_ATTESTATION_SECONDS, type BridgeSpeed, type Intent, type Step, type Strategy } from '../../domain/intent';
import { cctpFee } from '../../domain/cctpFee';
import { fromUnits, toUnits } from '../../domain/money';
import { DEFAULT_HORIZON_DAYS, optimizationOf } from '../../domain/optimize';
import { refuseRequest, type PolicyRules } from '../../domain/policy';
import { requestChains, requestProtocols, requestSourceChains } from '../policies/decideIntent';
import { refusePlanValue } from '../policies/planCheck';
import { planCents, requestFloorCents, type PricedRequest } from '../policies/pricing';
import type { GasEstimateMethod, GasQuote, RouteFeeTable, TxRequest } from '../../ports/chain';
import {
  planOn,
  planningError,
  planningRequestOf,
  rankNetReturns,
  readPlanning,
  reportedApy,
  speedOf,
  type PlanningEffects,
  type PlanSuccess,
  operationOverheadGas,
  withSupplyPermits,
} from '../../engine/planning';
import { stepRequests } from '../../engine/stepRequests';

/** Which rule chose a lend's market: the default (highest APY) or the opt-in net return. */
export type PreviewChoice = 'bestApy' | 'netReturn';

/** One transaction of a previewed step, with its gas estimate. */
export interface PreviewTransaction {
  /** approve, supply, withdraw, burn or mint (the relayer's, on the destination). */
  kind: TxRequest['kind'];
  chain: ChainName;
  /** Gas units, integer string. */
  gas: string;
  /** gas × the chain's gas price now × its ETH/USD feed. */
  gasUsd: number;
  /** estimated (eth_estimateGas), simulated (eth_call with the funds of earlier steps granted by a state override) or typical (measured figure of the kind: a mint needs the attestation of its burn). */
  estimate: GasEstimateMethod;
}

/** A step of the previewed plan with what it costs and what it brings. */
export interface PreviewStep {
  index: number;
  type: Step['type'];
  chain: ChainName;
  from?: ChainName;
  to?: ChainName;
  protocol?: string;
  /** What the step moves, token units (decimal string); `amountUnits` in smallest units. */
  amount: string;
  amountUnits: string;
  /** Route fee of a bridge (0 for other steps). */
  routeFee: string;
  routeFeeUnits: string;
  /** What arrives after the step (amount − route fee). */
  arrives: string;
  arrivesUnits: string;
  /** Bridge only: the CCTP fee tier charged (basis points, fractions allowed) and the typical wait for the attestation at the intent's speed. */
  routeFeeBps?: number;
  expectedWaitSeconds?: number;
  /** Deposit only: the market's supply APY (percent) and what the deposit earns in a year at it (token units). */
  apy?: number;
  expectedYearlyEarnings?: string;
  /**
   * Its transactions' gas; on a `7702` chain the step whose calls close the
   * chain's user operation also carries what the operation adds (its
   * validation, the EntryPoint's bookkeeping, a first authorization).
   */
  gas: { units: string; usd: number; transactions: PreviewTransaction[] };
}

/** What the plan's bridges would cost and wait at one speed (the same bridges; the deposit after them gets less by the fee). */
export interface PreviewSpeed {
  speed: BridgeSpeed;
  /** CCTP fees of the plan's bridges at this speed's tier, token units; `routeFeesUnits` in smallest units. */
  routeFees: string;
  routeFeesUnits: string;
  /** How long each bridge typically waits for its attestation at this speed on the public networks (the sandbox attests in milliseconds). */
  expectedWaitSeconds: number;
}

/** A lend's market under one choice rule, with its net return over the horizon (route fees and typical gas, as the ranking counts them). */
export interface PreviewAlternative {
  choice: PreviewChoice;
  chain: ChainName;
  protocol: string;
  apy: number;
  /** Bridges needed to gather the funds there. */
  bridges: number;
  /** What would be deposited, token units. */
  amount: string;
  earningsUsd: number;
  routeFeesUsd: number;
  gasUsd: number;
  netReturnUsd: number;
}

/** The answer of POST /intents/preview: the plan the engine would run now, priced. */
export interface IntentPreview {
  walletId: string;
  action: Intent['action'];
  asset: TokenAsset;
  requestedAmount: string;
  requestedAmountUnits: string;
  /** What the plan finally deposits, withdraws or delivers (after route fees). */
  amount: string;
  amountUnits: string;
  strategy: Strategy;
  reasoning: string;
  /** lend without `chain`: which rule chose the market (`netReturn` when the body asks optimize: netReturn). */
  choice?: PreviewChoice;
  /** Days the net return is counted over (lend without `chain`). */
  horizonDays?: number;
  /** Bridge and lend: the speed the plan's bridges go at. */
  speed?: BridgeSpeed;
  /** When the plan bridges: its bridges' CCTP fees and typical wait at each speed (the plan is priced at `speed`). */
  speeds?: PreviewSpeed[];
  /** APY of the market lent to (or withdrawn from), percent; null when none. */
  apy: number | null;
  steps: PreviewStep[];
  totals: {
    routeFees: string;
    routeFeesUnits: string;
    /** Every transaction's gas (and every user operation's overhead), as `results.totalGasUsed` counts it (the gas tank's native top-up of the wallet is not counted there, nor here). */
    gasUnits: string;
    gasUsd: number;
    /** lend: what the deposit earns in a year at the APY, token units. */
    expectedYearlyEarnings?: string;
  };
  /** lend without `chain`, when the highest APY and the best net return choose different markets: both. */
  alternatives?: PreviewAlternative[];
}

export type PreviewIntentDeps = Pick<AppDeps, 'store' | 'chains' | 'environment'>;

/**
 * What planning reads through, for the reads that plan without executing
 * (preview, yields ranked by net return): the chains are read once, like the
 * first try of the engine's planning (no waits between tries: the client may
 * ask again).
 */
export function planningEffects(deps: Pick<AppDeps, 'store' | 'chains'>): PlanningEffects {
  return { chains: deps.chains, wallets: deps.store.wallets, intents: deps.store.intents, signal: new AbortController().signal };
}

const roundUsd = (n: number): number => Math.round(n * 1e6) / 1e6;
const usdOf = (gas: bigint, q: GasQuote): number => (Number(gas * q.gasPriceWei) / 1e18) * q.ethUsd;

/** Yearly earnings of `units` at `apy` percent, in smallest units (rounded down). */
const yearly = (units: bigint, apy: number): bigint => (units * BigInt(Math.round(apy * 1e6))) / 100_000_000n;

/** Refuses, as POST /intents would, what the policy decides from the request alone (its daily cap is neither checked nor reserved: nothing is spent). */
export async function checkPolicy(
  deps: PreviewIntentDeps,
  principalWallet: Awaited<ReturnType<typeof getWalletById>>,
  params: CreateIntentCommand,
): Promise<Intent['policy']> {
  const policy = await effectivePolicy(deps, principalWallet);
  if (!policy) return undefined;
  const rules: PolicyRules = policy.rules;
  // the request's floor, as submit prices it (pricing.ts); the plan's own value is checked once planned
  const cents =
    rules.maxUsdPerIntent !== undefined
      ? await requestFloorCents(deps.chains, params as PricedRequest, requestSourceChains(deps, principalWallet, params, rules))
      : 0n;
  const refusal = refuseRequest(rules, { action: params.action, chains: requestChains(params), protocols: requestProtocols(params), usdCents: cents });
  if (refusal) throw policyViolation({ id: policy.id, version: policy.version }, refusal);
  return { id: policy.id, version: policy.version, rules };
}

/** The fee tier of a route at `speed`, bps (0 when the service answered none for it). */
const tierOf = (table: RouteFeeTable, from: ChainName, to: ChainName, speed: BridgeSpeed): number => table[from]?.[to]?.[speed] ?? 0;

/** The plan's bridges priced at each speed. */
function speedQuotes(steps: readonly Step[], table: RouteFeeTable): PreviewSpeed[] {
  return BRIDGE_SPEEDS.map((speed) => {
    const fees = steps.reduce((sum, s) => (s.type === 'bridge' ? sum + cctpFee(toUnits(s.amount, 'USDC'), tierOf(table, s.from, s.to, speed)) : sum), 0n);
    return { speed, routeFees: fromUnits(fees, 'USDC'), routeFeesUnits: fees.toString(), expectedWaitSeconds: EXPECTED_ATTESTATION_SECONDS[speed] };
  });
}

const depositOf = (p: PlanSuccess): Extract<Step, { type: 'deposit' }> | undefined =>
  p.plan.steps.find((s): s is Extract<Step, { type: 'deposit' }> => s.type === 'deposit');

/**
 * On a `7702` chain the plan's calls there run as one user operation: what
 * that adds to its calls' gas (operationOverheadGas) is priced once, on the
 * step whose calls close the operation (the last step with a transaction on
 * the chain). Plain chains add nothing.
 */
async function addOperationOverheads(
  steps: PreviewStep[],
  modelOf: (chain: ChainName) => AccountModel,
  quoteOf: (chain: ChainName) => Promise<GasQuote>,
): Promise<void> {
  const closing = new Map<ChainName, PreviewStep>();
  for (const s of steps) for (const t of s.gas.transactions) closing.set(t.chain, s);
  for (const [chain, step] of closing) {
    const overhead = operationOverheadGas(modelOf(chain));
    if (overhead === 0n) continue;
    const quote = await quoteOf(chain);
    step.gas = { ...step.gas, units: (BigInt(step.gas.units) + overhead).toString(), usd: roundUsd(step.gas.usd + usdOf(overhead, quote)) };
  }
}

/**
 * POST /intents/preview and Query.previewIntent: the command of POST /intents, planned exactly as the
 * engine would plan it now (same reads, same reservations of in-flight
 * intents, same policy, same pure planner), nothing stored, signed or sent.
 * Each step is priced: route fee, gas of each of its transactions (see
 * PreviewTransaction.estimate), what arrives, and for a deposit the yearly
 * earnings at the APY. A plan that cannot be made throws the error the
 * intent would fail with (INSUFFICIENT_FUNDS 422, POLICY_VIOLATION 403).
 */
export async function previewIntent(deps: PreviewIntentDeps, principal: Principal, params: CreateIntentCommand): Promise<IntentPreview> {
  assertChainsUsable(principal, namedChains(params), deps.environment);
  const wallet = await getWalletById(deps, principal, params.walletId);
  checkWalletChains(wallet, params);
  const policy = await checkPolicy(deps, wallet, params);
  // planned as the engine plans the intent POST /intents would store
  const request = planningRequestOf({ walletId: wallet.id, ...askedOf(params), ...(policy && { policy }) });
  const fx = planningEffects(deps);
  // a lend that lets the service choose is read with gas prices, so both choice rules can be shown
  const choosing = request.action === 'lend' && request.chain === undefined;
  const horizonDays = optimizationOf(request)?.horizonDays ?? DEFAULT_HORIZON_DAYS;
  const read = await readPlanning(choosing ? { ...request, optimize: 'netReturn', horizonDays } : request, fx);
  if (!read.ok) throw read.error;
  const result = planOn(request, read.snapshot);
  if (!result.ok) throw await planningError(request, fx, read.snapshot, result.error);
  if (policy?.rules.maxUsdPerIntent !== undefined) {
    // the plan priced where each step executes, as the engine checks it before signing (the daily cap is not reserved by a preview)
    const refused = refusePlanValue(policy.rules, await planCents(deps.chains, result.plan.steps, request.asset));
    if (refused) throw policyViolation(policy, refused);
  }

  const asset = request.asset;
  const quotes = new Map<ChainName, Promise<GasQuote>>();
  const quoteOf = (chain: ChainName): Promise<GasQuote> => {
    let q = quotes.get(chain);
    if (!q) quotes.set(chain, (q = deps.chains.gasQuote(chain)));
    return q;
  };
  const address = wallet.evmAddress as Address;
  const steps = await Promise.all(
    // the transactions the intent would send: a deposit that takes a permit is one
    withSupplyPermits(result.plan.steps, deps.chains).map(async (step): Promise<PreviewStep> => {
      const txs = await Promise.all(
        stepRequests(step).map(async ({ tx, assume }): Promise<PreviewTransaction> => {
          const [estimate, quote] = await Promise.all([deps.chains.estimateGas(address, tx, assume), quoteOf(tx.chain)]);
          return { kind: tx.kind, chain: tx.chain, gas: estimate.gas.toString(), gasUsd: roundUsd(usdOf(estimate.gas, quote)), estimate: estimate.method };
        }),
      );
      const stepAsset = step.type === 'bridge' ? 'USDC' : step.asset;
      const amount = toUnits(step.amount, stepAsset);
      const fee = step.type === 'bridge' ? toUnits(step.fee ?? '0', 'USDC') : 0n;
      const gasUnits = txs.reduce((sum, t) => sum + BigInt(t.gas), 0n);
      const view: PreviewStep = {
        index: step.index,
        type: step.type,
        chain: step.chain,
        amount: step.amount,
        amountUnits: amount.toString(),
        routeFee: fromUnits(fee, stepAsset),
        routeFeeUnits: fee.toString(),
        arrives: fromUnits(amount - fee, stepAsset),
        arrivesUnits: (amount - fee).toString(),
        gas: { units: gasUnits.toString(), usd: roundUsd(txs.reduce((sum, t) => sum + t.gasUsd, 0)), transactions: txs },
      };
      if (step.type === 'bridge') {
        const speed = speedOf(request);
        Object.assign(view, {
          from: step.from,
          to: step.to,
          routeFeeBps: tierOf(read.snapshot.market.routeFees, step.from, step.to, speed),
          expectedWaitSeconds: EXPECTED_ATTESTATION_SECONDS[speed],
        });
      } else view.protocol = step.protocol;
      if (step.type === 'deposit' && result.apy !== null) {
        view.apy = reportedApy(result.apy)!;
        view.expectedYearlyEarnings = fromUnits(yearly(amount, result.apy), stepAsset);
      }
      return view;
    }),
  );

  await addOperationOverheads(steps, (chain) => deps.chains.accountModel?.(chain) ?? 'plain', quoteOf);

  const fees = steps.reduce((sum, s) => sum + BigInt(s.routeFeeUnits), 0n);
  const preview: IntentPreview = {
    walletId: wallet.id,
    action: request.action,
    asset,
    requestedAmount: params.amount,
    requestedAmountUnits: request.amount.toString(),
    amount: fromUnits(result.amount, asset),
    amountUnits: result.amount.toString(),
    strategy: result.plan.strategy,
    reasoning: result.plan.reasoning,
    apy: result.apy === null ? null : reportedApy(result.apy)!,
    steps,
    totals: {
      routeFees: fromUnits(fees, 'USDC'),
      routeFeesUnits: fees.toString(),
      gasUnits: steps.reduce((sum, s) => sum + BigInt(s.gas.units), 0n).toString(),
      gasUsd: roundUsd(steps.reduce((sum, s) => sum + s.gas.usd, 0)),
    },
  };
  if (request.speed !== undefined) preview.speed = request.speed;
  if (result.plan.steps.some((s) => s.type === 'bridge')) preview.speeds = speedQuotes(result.plan.steps, read.snapshot.market.routeFees);
  const deposit = depositOf(result);
  if (deposit !== undefined && result.apy !== null)
    preview.totals.expectedYearlyEarnings = fromUnits(yearly(toUnits(deposit.amount, asset), result.apy), asset);

  if (choosing) {
    preview.choice = request.optimize === 'netReturn' ? 'netReturn' : 'bestApy';
    preview.horizonDays = horizonDays;
    // the other rule's plan on the same snapshot: shown when it lends elsewhere
    const other = planOn(
      request.optimize === 'netReturn' ? { ...request, optimize: undefined } : { ...request, optimize: 'netReturn', horizonDays },
      read.snapshot,
    );
    const otherDeposit = other.ok ? depositOf(other) : undefined;
    if (deposit !== undefined && otherDeposit !== undefined && (otherDeposit.chain !== deposit.chain || otherDeposit.protocol !== deposit.protocol)) {
      const returns = rankNetReturns(request, read.snapshot, horizonDays);
      const alternative = (choice: PreviewChoice, d: typeof deposit): PreviewAlternative[] => {
        const r = returns.find((x) => x.chain === d.chain && x.protocol === d.protocol);
        if (r === undefined) return [];
        return [
          {
            choice,
            chain: r.chain,
            protocol: r.protocol,
            apy: reportedApy(r.apy)!,
            bridges: r.bridges,
            amount: fromUnits(r.deposited, asset),
            earningsUsd: r.earningsUsd,
            routeFeesUsd: r.routeFeesUsd,
            gasUsd: r.gasUsd,
            netReturnUsd: r.netReturnUsd,
          },
        ];
      };
      const [apyDeposit, netDeposit] = preview.choice === 'bestApy' ? [deposit, otherDeposit] : [otherDeposit, deposit];
      preview.alternatives = [...alternative('bestApy', apyDeposit), ...alternative('netReturn', netDeposit)];
    }
  }
  return preview;
}
