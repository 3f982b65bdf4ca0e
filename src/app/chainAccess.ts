import type { Principal } from './accounts/principal';
import { CHAINS, type ChainName } from '../domain/chains';
import { planRestricted } from '../domain/errors/auth';
import { invalidChain } from '../domain/errors/chain';
import { PLANS } from '../domain/plans';

/** A chain a request names, with the field (or parameter) that names it. */
export interface NamedChain {
  field: string;
  chain: ChainName;
}

/**
 * DESIGN §4, for every route and field, reads included: naming an upcoming
 * main network is 403 PLAN_RESTRICTED on the free plan, and 400 INVALID_CHAIN
 * (`details.status = "upcoming"`) on the others until the chain is active.
 */
export function assertChainsUsable(principal: Principal, named: readonly NamedChain[]): void {
  for (const { field, chain } of named) {
    if (CHAINS[chain].status !== 'upcoming') continue;
    if (!PLANS[principal.account.plan].mainNetworks) throw planRestricted(principal.account.plan, chain);
    throw invalidChain(chain, { field, status: 'upcoming' });
  }
}
