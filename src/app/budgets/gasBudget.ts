import { formatEther } from 'viem';
import type { UsageRepo } from '../../store/port';
import { ServiceError } from '../../domain/errors/base';
import { budgetUsed, recordInBudget, type RollingBudget } from './rollingWindow';

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

/** 429 GAS_BUDGET_EXCEEDED when the account's gas over the last 24 h has reached `budgetWei`: the intent is not started. */
export async function assertGasBudget(usage: UsageRepo, accountId: string, budgetWei: bigint, now: Date): Promise<void> {
  const limitGwei = Number(budgetWei / GWEI);
  const { used, retryAfterSeconds } = await budgetUsed(usage, gasBudget(accountId, limitGwei), now.getTime());
  if (used < limitGwei) return;
  const budget = formatEther(budgetWei);
  const spent = formatEther(BigInt(used) * GWEI);
  throw new ServiceError('GAS_BUDGET_EXCEEDED', `This account's gas budget of ${budget} ETH per ${WINDOW_HOURS} h is spent (${spent} ETH)`, {
    details: { budgetEth: budget, spentEth: spent, windowHours: WINDOW_HOURS, retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}
