import { CHAIN_NAMES, TEST_CHAINS, type ChainName } from '../../domain/chains';
import { PLANS, type PlanName } from '../../domain/plans';
import type { ChainType } from '../../domain/types';

/** DESIGN §4: free plan → the three test chains; plans with main networks → all six; tron → none yet. */
export function chainsForWallet(plan: PlanName, chainType: ChainType): ChainName[] {
  if (chainType === 'tron') return [];
  return PLANS[plan].mainNetworks ? [...CHAIN_NAMES] : [...TEST_CHAINS];
}
