import type { Address } from 'viem';
import { ServiceError, isServiceError } from '../domain/errors/base';
import { invalidChain } from '../domain/errors/chain';
import { walletNotFound } from '../domain/errors/wallet';
import type { Intent } from '../domain/intent';
import { fromUnits, toUnits } from '../domain/money';
import type { ChainHoldings, MarketRate } from '../chain/port';
import { untilAborted } from './abort';
import { withRetry } from './executor/retry';
import { plan } from './planner/plan';
import type { ChainAmounts, PlannerInput, PositionAmounts, RouteFees } from './planner/types';
import { lessReserved, reservedBalances } from './planner/reserved';
import { chainAllowed, protocolAllowed, type PolicyRefusal, type PolicyRules } from '../domain/policy';
import { policyViolation } from '../domain/errors/policy';
import type { ChainName } from '../domain/chains';

/** Executing intents of one wallet read for reservations; the wallet actor runs one at a time, so more than a few means something is wrong. */
const MAX_EXECUTING_READ = 100;
import type { IntentEvent } from './stateMachine';
import type { UnitContext } from './unitContext';

/** What the planner reads from the chains for one wallet. */
interface MarketSnapshot {
  holdings: ChainHoldings[];
  rates: MarketRate[];
  routeFees: RouteFees;
}

/** Balances and positions of the intent's asset, per chain (and protocol), in smallest units. */
function holdingsOf(holdings: readonly ChainHoldings[], asset: Intent['asset']): { balances: ChainAmounts; positions: PositionAmounts } {
  const balances: ChainAmounts = {};
  const positions: Partial<Record<ChainHoldings['chain'], Record<string, bigint>>> = {};
  for (const h of holdings) {
    const balance = h.tokens.filter((t) => t.asset === asset).reduce((sum, t) => sum + t.balance, 0n);
    if (balance > 0n) balances[h.chain] = balance;
    for (const p of h.positions) {
      if (p.asset !== asset || p.amount <= 0n) continue;
      const byProtocol = (positions[h.chain] ??= {});
      byProtocol[p.protocol] = (byProtocol[p.protocol] ?? 0n) + p.amount;
    }
  }
  return { balances, positions };
}

/** The planner input of `intent` from a fresh market snapshot, less what the wallet's other executing intents hold (`reserved`). */
export function plannerInput(intent: Intent, market: MarketSnapshot, chains: readonly string[], reserved: ChainAmounts = {}): PlannerInput {
  const held = holdingsOf(market.holdings, intent.asset);
  const balances = lessReserved(held.balances, reserved);
  const positions = held.positions;
  return {
    request: {
      action: intent.action,
      amount: toUnits(intent.requestedAmount, intent.asset),
      asset: intent.asset,
      chain: intent.chain,
      fromChain: intent.fromChain,
      toChain: intent.toChain,
    },
    balances,
    positions,
    rates: market.rates.filter((r) => chains.includes(r.chain)),
    routeFees: market.routeFees,
  };
}

const fail = (error: ServiceError): IntentEvent => ({ type: 'fail', error: error.toJSON() });

/** Whether the intent would have a plan with no policy: holdings on every chain of the wallet, every market. */
async function policyFreePlan(intent: Intent, ctx: UnitContext, address: Address, walletChains: ChainName[], market: MarketSnapshot, reserved: ChainAmounts): Promise<boolean> {
  const extra = walletChains.filter((c) => !market.holdings.some((h) => h.chain === c));
  const holdings = extra.length === 0 ? market.holdings : [...market.holdings, ...(await untilAborted(ctx.chains.holdings(address, extra), ctx.signal))];
  return plan(plannerInput(intent, { ...market, holdings }, walletChains, reserved)).ok;
}

/** The rule a planning failure under a policy is reported by: the chains rule when it restricts chains, else the protocols rule. */
function planningRefusal(rules: PolicyRules, details: unknown): PolicyRefusal {
  if (rules.chains) return { rule: 'chains', limit: rules.chains, requested: { plan: 'needs funds or markets on chains the policy does not allow', ...(details as object) } };
  return { rule: 'protocols', limit: rules.protocols, requested: { plan: 'needs a market of a protocol the policy does not allow', ...(details as object) } };
}

/** APY percent as the yields report shows it (2 decimals), so an intent's `results.apy` matches GET /yields for its market. */
const reportedApy = (apy: number | null): number | undefined => (apy === null ? undefined : Math.round(apy * 100) / 100);

/**
 * Plans a planning intent: reads the wallet's holdings on its chains, the
 * rates and route fees (transient errors retried), then runs the pure
 * planner. Returns the `execute` event, or `fail` (INSUFFICIENT_FUNDS with
 * details, or why the chains could not be read).
 */
export async function planIntent(intent: Intent, ctx: UnitContext): Promise<IntentEvent> {
  const wallet = await ctx.wallets.getById(intent.walletId);
  if (wallet === null) return fail(walletNotFound({ walletId: intent.walletId }));
  if (wallet.chainType === 'tron') return fail(invalidChain('tron', { reason: 'no Tron network is supported yet' }));
  const walletChains = wallet.chains.filter((c) => ctx.chains.chains.includes(c));
  // Policy-aware planning: only the chains the intent's policy allows are read and used (funds elsewhere are not touched).
  const rules = intent.policy?.rules;
  const chains = walletChains.filter((c) => chainAllowed(rules, c));

  let market: MarketSnapshot;
  try {
    market = await withRetry(
      async () => {
        const [holdings, rates, routeFees] = await untilAborted(
          Promise.all([ctx.chains.holdings(wallet.evmAddress as Address, chains), ctx.chains.rates(), ctx.chains.routeFeesBps()]),
          ctx.signal,
        );
        return { holdings, rates, routeFees };
      },
      { policy: ctx.retry, clock: ctx.clock, signal: ctx.signal },
    );
  } catch (e) {
    // a service error from the reads (node trouble beyond the retries, an unconfigured chain) fails the planning
    if (isServiceError(e) && e.code !== 'INTERNAL_ERROR') return fail(e);
    throw e;
  }

  const executing = await ctx.intents.listByWallet(intent.walletId, { status: 'executing', limit: MAX_EXECUTING_READ });
  const reserved = reservedBalances(
    executing.filter((i) => i.id !== intent.id),
    intent.asset,
  );
  const allowedRates = market.rates.filter((r) => protocolAllowed(rules, r.protocol));
  const result = plan(plannerInput(intent, { ...market, rates: allowedRates }, chains, reserved));
  if (!result.ok) {
    // No plan under the policy: if one exists without it, the policy is why (POLICY_VIOLATION, nothing signed).
    if (intent.policy && result.error.code === 'INSUFFICIENT_FUNDS') {
      const unrestricted = await policyFreePlan(intent, ctx, wallet.evmAddress as Address, walletChains, market, reserved);
      if (unrestricted) return fail(policyViolation(intent.policy, planningRefusal(intent.policy.rules, result.error.details)));
    }
    return fail(result.error);
  }
  return { type: 'execute', plan: result.plan, amount: fromUnits(result.amount, intent.asset), apy: reportedApy(result.apy) };
}
