import type { TokenAsset } from '../../../src/domain/chains';
import { toUnits } from '../../../src/domain/money';
import type { PlannerInput, PlanRequest, PlanResult, PlanSuccess, RateQuote } from '../../../src/engine/planner/types';

export const usdc = (amount: string): bigint => toUnits(amount, 'USDC');
export const dai = (amount: string): bigint => toUnits(amount, 'DAI');

/** Test-network USDC and DAI markets: base-sepolia/aave is the best USDC market. */
export const RATES: RateQuote[] = [
  { chain: 'arbitrum-sepolia', protocol: 'aave', asset: 'USDC', apy: 3.1 },
  { chain: 'base-sepolia', protocol: 'aave', asset: 'USDC', apy: 4.2 },
  { chain: 'base-sepolia', protocol: 'compound', asset: 'USDC', apy: 3.9 },
  { chain: 'ethereum-sepolia', protocol: 'aave', asset: 'USDC', apy: 2.5 },
  { chain: 'ethereum-sepolia', protocol: 'aave', asset: 'DAI', apy: 5.5 },
  { chain: 'arbitrum-sepolia', protocol: 'aave', asset: 'DAI', apy: 6.25 },
];

/** A planner input with no balances, no positions, the RATES above and no route fees. */
export function input(request: Partial<PlanRequest> & { amount: bigint }, rest: Partial<Omit<PlannerInput, 'request'>> = {}): PlannerInput {
  const asset: TokenAsset = request.asset ?? 'USDC';
  return { request: { action: 'lend', asset, ...request }, balances: {}, positions: {}, rates: RATES, ...rest };
}

/** Narrows a result to a plan, failing the test with the error otherwise. */
export function expectPlan(result: PlanResult): PlanSuccess {
  if (!result.ok) throw new Error(`expected a plan, got ${result.error.code}: ${result.error.message}`);
  return result;
}

/** The error of a failed result, failing the test when a plan came back. */
export function expectFailure(result: PlanResult): { code: string; details: Record<string, unknown>; message: string } {
  if (result.ok) throw new Error(`expected a failure, got strategy ${result.plan.strategy}`);
  return result.error;
}
