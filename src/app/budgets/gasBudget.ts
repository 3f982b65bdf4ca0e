import { formatEther } from 'viem';
import type { UsageRepo } from '../../ports/store';
import { ServiceError } from '../../domain/errors/base';
import type { AccountModel, ChainName } from '../../domain/chains';
import { chainCallsGas, operationOverheadGas } from '../../engine/planning';
import type { Intent, IntentAction } from '../../domain/intent';
import type { ChainPort, TxKind } from '../../ports/chain';
import { TYPICAL_GAS } from '../../ports/typicalGas';
import { recordInBudget, takeFromBudget, type RollingBudget } from './rollingWindow';

/**
 * The gas the service pays for one account's intents (every transaction's
 * receipt gas cost: the wallet's gas comes from the gas tank's top-ups, the
 * relayer's mints from the tank itself), capped per rolling 24 h. Counted in
 * gwei so a day of spending stays an exact integer counter.
 */
const GWEI = 1_000_000_000n;
const WINDOW_HOURS = 24;

const gasBudget = (accountId: string, limitGwei: number): RollingBudget => ({
  key: `gas:account:${accountId}`,
  limit: limitGwei,
  windowMs: WINDOW_HOURS * 3600_000,
  bucketMs: 3600_000,
});

/** Records gas paid for an account (rounded up to the gwei). */
export async function recordGasSpent(usage: UsageRepo, accountId: string, wei: bigint, now: Date): Promise<void> {
  if (wei <= 0n) return;
  await recordInBudget(usage, gasBudget(accountId, 0), Number((wei + GWEI - 1n) / GWEI), now.getTime());
}

/** The transactions an action sends at least (a lend that needs bridges sends more: its actual gas is counted as it is paid). */
const KINDS: Record<Exclude<IntentAction, 'rebalance'>, TxKind[]> = {
  lend: ['approve', 'supply'],
  withdraw: ['withdraw'],
  bridge: ['approve', 'burn', 'mint'],
};

/** What of a request says which transactions it sends. */
export type GasShape = Pick<Intent, 'action' | 'toChain' | 'sources'>;

/**
 * The transactions a request sends: a rebalance's are known from its
 * sources (a withdraw per position, approve + burn + mint per chain bridged
 * from, approve + supply of the deposit); the other actions' at least KINDS.
 */
export function intentTxKinds(request: GasShape): TxKind[] {
  if (request.action !== 'rebalance') return KINDS[request.action];
  const sources = request.sources ?? [];
  const withdraws = sources.filter((s) => s.protocol !== null).map((): TxKind => 'withdraw');
  const bridged = new Set(sources.filter((s) => s.chain !== request.toChain).map((s) => s.chain));
  const bridges = [...bridged].flatMap((): TxKind[] => ['approve', 'burn', 'mint']);
  return [...withdraws, ...bridges, 'approve', 'supply'];
}

/**
 * How many chains a request's transactions run on at most, hence how many
 * user operations it is where wallets run operations: a lend's deposit and a
 * withdraw one; a bridge its source and its destination (the mint); a
 * rebalance each chain it bridges from, and its destination.
 */
export function intentOperations(request: GasShape): number {
  if (request.action === 'bridge') return 2;
  if (request.action !== 'rebalance') return 1;
  const bridged = new Set((request.sources ?? []).filter((s) => s.chain !== request.toChain).map((s) => s.chain));
  return bridged.size + 1;
}

/**
 * The gas an intent is expected to cost: the typical gas of its transactions,
 * each chain's as its account model runs them (the engine's chainCallsGas
 * rule: on a `7702` chain an operation's overhead, no top-up), at the highest
 * gas price now among the chains it may run on. Which of those chains runs
 * which calls is known only once planned: when any of them is `7702`, every
 * operation is priced so (an upper bound). An estimate only: a chain that
 * does not answer now is left out (the intent's planning retries it; its
 * actual gas is counted receipt by receipt), so a passing node error never
 * refuses an intent at the door.
 */
export async function estimateIntentGasWei(
  chains: Pick<ChainPort, 'gasQuote' | 'accountModel'>,
  request: GasShape,
  onChains: readonly ChainName[],
): Promise<bigint> {
  if (onChains.length === 0) return 0n;
  const quotes = await Promise.allSettled(onChains.map((c) => chains.gasQuote(c)));
  const price = quotes.reduce((max, q) => (q.status === 'fulfilled' && q.value.gasPriceWei > max ? q.value.gasPriceWei : max), 0n);
  const model: AccountModel = onChains.some((c) => chains.accountModel?.(c) === '7702') ? '7702' : 'plain';
  const calls = chainCallsGas(
    model,
    intentTxKinds(request).map((kind) => TYPICAL_GAS[kind]),
  );
  return (calls + operationOverheadGas(model) * BigInt(intentOperations(request) - 1)) * price;
}

/** What an admitted intent holds of its account's gas budget until it is final. */
export type GasReservation = NonNullable<Intent['gasReservation']> & { giveBack(): Promise<void> };

/**
 * Reserves `estimateWei` of the account's gas budget over the rolling 24 h,
 * atomically in the store's counters (two admissions never both pass the
 * cap), or 429 GAS_BUDGET_EXCEEDED with nothing started. The intent's actual
 * gas is counted receipt by receipt (recordGasSpent, gas top-ups included);
 * the reservation is given back when the intent is final (settleGasReservation).
 */
export async function reserveGasBudget(usage: UsageRepo, accountId: string, budgetWei: bigint, estimateWei: bigint, now: Date): Promise<GasReservation> {
  const limitGwei = Number(budgetWei / GWEI);
  // at least one gwei: an account whose budget is spent starts nothing, whatever the estimate
  const gwei = Math.max(1, Number((estimateWei + GWEI - 1n) / GWEI));
  const take = await takeFromBudget(usage, gasBudget(accountId, limitGwei), gwei, now.getTime());
  if (take.ok) return { key: take.bucket.key, gwei, expiresAt: take.bucket.expiresAt.toISOString(), giveBack: take.giveBack };
  const budget = formatEther(budgetWei);
  const spent = formatEther(BigInt(take.used) * GWEI);
  throw new ServiceError(
    'GAS_BUDGET_EXCEEDED',
    `This account's gas budget of ${budget} ETH per ${WINDOW_HOURS} h is spent (${spent} ETH, and this intent is expected to need ${formatEther(BigInt(gwei) * GWEI)} ETH)`,
    {
      details: { budgetEth: budget, spentEth: spent, windowHours: WINDOW_HOURS, retryAfterSeconds: take.retryAfterSeconds },
      retryAfterSeconds: take.retryAfterSeconds,
    },
  );
}

/** Gives back what a final intent reserved of its account's gas budget (its actual gas stays counted). */
export async function settleGasReservation(usage: UsageRepo, intent: Pick<Intent, 'gasReservation'>): Promise<void> {
  const r = intent.gasReservation;
  if (!r || r.gwei <= 0) return;
  await usage.increment(r.key, -r.gwei, new Date(r.expiresAt));
}
