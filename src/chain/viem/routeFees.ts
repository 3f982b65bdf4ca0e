import { LRUCache } from 'lru-cache';
import { CHAINS, type ChainName } from '../../domain/chains';
import type { Clock } from '../../domain/clock';
import { ServiceError, isServiceError } from '../../domain/errors/base';
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

/** NETWORK_ERROR and TIMEOUT: the attestation service is out for now (the engine's rule, without importing the engine). */
const isTransient = (e: unknown): boolean => isServiceError(e) && (e.code === 'NETWORK_ERROR' || e.code === 'TIMEOUT');

/** The tier of a fee route answer at `threshold`, in bps (a route without it is a service that does not offer the tier: free is not assumed). */
function tierBps(tiers: readonly { finalityThreshold: number; minimumFeeBps: number }[], threshold: number, route: string): number {
  const tier = tiers.find((t) => t.finalityThreshold === threshold);
  if (tier === undefined)
    throw new ServiceError('BRIDGE_FAILED', `The attestation service has no fee tier ${threshold} for ${route}`, {
      details: { service: 'attestation', route, threshold },
    });
  return tier.minimumFeeBps;
}

/** The table as last read, each route marked as such (`lastKnownAt`). */
function markedLastKnown(table: RouteFeeTable, at: string): RouteFeeTable {
  const out: RouteFeeTable = {};
  for (const [from, row] of Object.entries(table)) {
    for (const [to, tiers] of Object.entries(row ?? {})) if (tiers) (out[from as ChainName] ??= {})[to as ChainName] = { ...tiers, lastKnownAt: at };
  }
  return out;
}

/**
 * Fee tiers of every route, kept `ttlMs`; concurrent misses share one read of
 * the attestation service. While the service does not answer (a transient
 * error), the last table it answered is used, every route marked
 * `lastKnownAt`: bridges can still be planned, their fee marked as last
 * known. Without any answer yet the error goes up.
 */
export function createRouteFees(deployments: readonly ChainDeployment[], attestations: AttestationClient, ttlMs: number, clock: Clock): RouteFees {
  let last: { table: RouteFeeTable; at: string } | undefined;
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
      last = { table: out, at: clock.now().toISOString() };
      return out;
    },
  });
  return {
    async table() {
      let table: RouteFeeTable | undefined;
      try {
        table = await feeTables.fetch('all');
      } catch (e) {
        if (last === undefined || !isTransient(e)) throw e;
        return markedLastKnown(last.table, last.at);
      }
      if (table === undefined) throw new Error('no route fee table');
      return table;
    },
    drop: () => feeTables.clear(),
  };
}
