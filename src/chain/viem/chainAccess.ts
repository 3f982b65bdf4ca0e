import type { ChainName } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import type { FaultRegistry } from '../../domain/sandboxFaults';
import type { ChainClient } from './chainClients';
import { onChain } from './translateError';

/** The configured chains' clients, and the one way every operation reaches a node. */
export interface ChainAccess {
  readonly faults: FaultRegistry;
  /** Whether `chain` is configured. */
  has(chain: ChainName): boolean;
  /** The client of a configured chain; INVALID_CHAIN for any other. */
  client(chain: ChainName): ChainClient;
  /** Every node call starts here: injected transport faults first, then viem errors translated (NETWORK_ERROR, TIMEOUT). */
  call<T>(chain: ChainName, fn: (c: ChainClient) => Promise<T>): Promise<T>;
}

export function createChainAccess(clients: ReadonlyMap<ChainName, ChainClient>, faults: FaultRegistry): ChainAccess {
  const client = (chain: ChainName): ChainClient => {
    const c = clients.get(chain);
    if (!c) throw new ServiceError('INVALID_CHAIN', `Chain ${chain} is not configured`, { details: { chain } });
    return c;
  };
  return {
    faults,
    has: (chain) => clients.has(chain),
    client,
    call: (chain, fn) =>
      onChain(chain, async () => {
        faults.throwTransportFault(chain);
        return fn(client(chain));
      }),
  };
}
