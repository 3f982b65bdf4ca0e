import { CHAIN_NAMES, TEST_CHAINS, type ChainName } from '../../domain/chains';
import type { PlanName } from '../../domain/plans';
import type { ChainType } from '../../domain/types';
import { mainNetworksAllowed, type ServiceEnvironment } from '../../domain/environment';

/** docs/decisions.md: free plan and staging → the three test chains; plans with main networks → all six; tron → none yet. */
export function chainsForWallet(plan: PlanName, chainType: ChainType, environment: ServiceEnvironment): ChainName[] {
  if (chainType === 'tron') return [];
  return mainNetworksAllowed(plan, environment) ? [...CHAIN_NAMES] : [...TEST_CHAINS];
}
