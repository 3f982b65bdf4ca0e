import { createProtocolRegistry, DEFAULT_PROTOCOLS } from '../../src/chain/protocols/registry';
import type { LendingProtocolModule } from '../../src/chain/protocols/types';

/** `m` without its permit supply: its deposits are approve + supply. */
function withoutPermit(m: LendingProtocolModule): LendingProtocolModule {
  const { supplyWithPermitCall: _permit, ...rest } = m;
  return rest;
}

/**
 * The service's protocols with no permit supply (Aave's supplyWithPermit
 * taken away), so that a deposit on a plain-transaction chain is approve +
 * supply, as it was before permits: tests written about that path (its
 * allowance, the revoke a failed supply owes, the transactions counted) pin
 * it with this; test/integration/engine/supplyPermit.test.ts covers the
 * permit path.
 */
export const PROTOCOLS_WITHOUT_PERMITS = createProtocolRegistry(DEFAULT_PROTOCOLS.modules.map(withoutPermit));
