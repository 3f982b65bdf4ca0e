import { invalidRequest } from '../../domain/errors/request';
import { planBridge } from './planBridge';
import { planLend } from './planLend';
import { planRebalance } from './planRebalance';
import { planWithdraw } from './planWithdraw';
import type { PlannerInput, PlanResult } from './types';

/** The planner: a pure function from balances, positions, rates and route fees to a plan or an error (docs/architecture.md). */
export function plan(input: PlannerInput): PlanResult {
  if (input.request.amount <= 0n) return { ok: false, error: invalidRequest([{ path: 'amount', message: 'amount must be positive' }]) };
  switch (input.request.action) {
    case 'lend':
      return planLend(input);
    case 'withdraw':
      return planWithdraw(input);
    case 'bridge':
      return planBridge(input);
    case 'rebalance':
      return planRebalance(input);
  }
}
