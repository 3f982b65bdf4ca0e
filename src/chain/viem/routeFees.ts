import { LRUCache } from 'lru-cache';
import { CHAINS } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import type { RouteFeeTable } from '../../ports/chain';
import type { ChainDeployment } from '../../ports/deploymentManifest';
import type { AttestationClient } from '../cctp/attestationClient';
import { FINALITY_FAST, FINALITY_STANDARD } from '../cctp/messageV2';

/** The CCTP fee tiers of every route, as the attestation service answers them, kept a while. */
export interface RouteFees {
  table(): Promise<RouteFeeTable>;
  /** Forgets the kept table: the next read asks the service. */
  drop(): void;
}

/** The tier of a fee route answer at `threshold`, in bps (a route without it is a service that does not offer the tier: free is not assumed). */
function tierBps(tiers: readonly { finalityThreshold: number; minimumFeeBps: number }[], threshold: number, route: string): number {
  const tier = tiers.find((t) => t.finalityThreshold === threshold);
  if (tier === undefined)
    throw new ServiceError('BRIDGE_FAILED', `The attestation service has no fee tier ${threshold} for ${route}`, {
      details: { service: 'attestation', route, threshold },
    });
  return tier.minimumFeeBps;
}

/** Fee tiers of every route, kept `ttlMs`; concurrent misses share one read of the attestation service. */
export function createRouteFees(deployments: readonly ChainDeployment[], attestations: AttestationClient, ttlMs: number): RouteFees {
  const feeTables = new LRUCache<'all', RouteFeeTable>({
    max: 1,
    ttl: ttlMs,
    fetchMethod: async () => {
      const out: RouteFeeTable = {};
      await Promise.all(
        deployments.flatMap((src) =>
          deployments
            // the routes a bridge may take: never between a main and a test network (their domains coincide)
            .filter((dest) => dest.chain !== src.chain && CHAINS[dest.chain].testnet === CHAINS[src.chain].testnet)
            .map(async (dest) => {
              const route = `${src.chain} -> ${dest.chain}`;
              const tiers = await attestations.fetchFees(CHAINS[src.chain].cctpDomain, CHAINS[dest.chain].cctpDomain);
              (out[src.chain] ??= {})[dest.chain] = { fast: tierBps(tiers, FINALITY_FAST, route), standard: tierBps(tiers, FINALITY_STANDARD, route) };
            }),
        ),
      );
      return out;
    },
  });
  return {
    async table() {
      const table = await feeTables.fetch('all');
      if (table === undefined) throw new Error('no route fee table');
      return table;
    },
    drop: () => feeTables.clear(),
  };
}
