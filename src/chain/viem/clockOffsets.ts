import type { ChainName } from '../../domain/chains';
import type { ChainClient } from './chainClients';
import { onChain } from './translateError';

/** How far one chain's clock stands from the wall clock, in seconds (positive: ahead). */
export interface ChainClock {
  chain: ChainName;
  /** The timestamp the chain would give a block now: its pending block's (a devnet computes it from its clock), else its latest block's. */
  blockTimestamp: number;
  offsetSeconds: number;
}

/**
 * Each chain's clock against this process's clock. Payments (x402's
 * validBefore), interest accrual and attestation waits compare chain time
 * with wall time, so an offset is worth seeing before it bites. The pending
 * block is asked, not the latest: an idle devnet's latest block is old, which
 * says nothing about the time its next block will carry.
 */
export async function readChainClocks(clients: readonly ChainClient[], now: () => number = Date.now): Promise<ChainClock[]> {
  return Promise.all(
    clients.map(async (c) => {
      const block = await onChain(
        c.name,
        async () => (await c.client.getBlock({ blockTag: 'pending' }).catch(() => null)) ?? c.client.getBlock({ blockTag: 'latest' }),
      );
      const blockTimestamp = Number(block.timestamp);
      return { chain: c.name, blockTimestamp, offsetSeconds: blockTimestamp - Math.floor(now() / 1000) };
    }),
  );
}
