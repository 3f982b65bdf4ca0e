import type { Principal } from './accounts/principal';
import { CHAINS, type ChainName } from '../domain/chains';
import { planRestricted } from '../domain/errors/auth';
import { invalidChain } from '../domain/errors/chain';
import { mainNetworksAllowed, type ServiceEnvironment } from '../domain/environment';
import { ServiceError } from '../domain/errors/base';

/** A chain a request names, with the field (or parameter) that names it. */
export interface NamedChain {
  field: string;
  chain: ChainName;
}

/**
 * docs/decisions.md, for every route and field, reads included: staging refuses every
 * main network (403 PLAN_RESTRICTED, whatever the plan); naming an upcoming
 * main network is 403 PLAN_RESTRICTED on the free plan, and 400 INVALID_CHAIN
 * (`details.status = "upcoming"`) on the others until the chain is active.
 */
export function assertChainsUsable(principal: Pick<Principal, 'account'>, named: readonly NamedChain[], environment: ServiceEnvironment): void {
  for (const { field, chain } of named) {
    if (environment === 'staging' && !CHAINS[chain].testnet) {
      throw new ServiceError('PLAN_RESTRICTED', `This staging deployment serves test networks only; ${chain} is a main network`, {
        details: { plan: principal.account.plan, chain, environment },
      });
    }
    if (CHAINS[chain].status !== 'upcoming') continue;
    if (!mainNetworksAllowed(principal.account.plan, environment)) throw planRestricted(principal.account.plan, chain);
    throw invalidChain(chain, { field, status: 'upcoming' });
  }
}
