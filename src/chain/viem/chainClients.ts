import { createPublicClient, http, type Chain, type PublicClient } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { ChainDeployment } from '../../ports/deploymentManifest';
import { DEFAULT_PROTOCOLS, type ProtocolRegistry } from '../protocols/registry';
import { viemChainFor } from '../sandbox/viemChains';
import { observedTransport, type RpcObserver } from './observedTransport';
import { fetchResendingReadsOnStaleSocket } from './staleSocketFetch';

/** One chain as the adapter sees it: its deployment, a batching public client, and the lending protocols' modules its markets are read and called with. */
export interface ChainClient {
  name: ChainName;
  chain: Chain;
  deployment: ChainDeployment;
  client: PublicClient;
  protocols: ProtocolRegistry;
}

/**
 * Public clients per chain; JSON-RPC batching folds a chain's concurrent reads
 * into one HTTP round trip. `onRpc` is told of every request (metrics).
 */
export function createChainClients(
  deployments: readonly ChainDeployment[],
  pollingIntervalMs: number,
  timeoutMs = 10_000,
  onRpc?: RpcObserver,
  protocols: ProtocolRegistry = DEFAULT_PROTOCOLS,
): Map<ChainName, ChainClient> {
  const out = new Map<ChainName, ChainClient>();
  for (const d of deployments) {
    const chain = viemChainFor(d.chain, d.rpcUrl);
    // No retries (an outage answers 503 within RPC_TIMEOUT_MS), except a read written on a socket the node had closed.
    const transport = http(d.rpcUrl, { batch: { wait: 0 }, retryCount: 0, timeout: timeoutMs, fetchFn: fetchResendingReadsOnStaleSocket });
    const client = createPublicClient({
      chain,
      transport: onRpc ? observedTransport(transport, d.chain, onRpc) : transport,
      pollingInterval: pollingIntervalMs,
    }) as PublicClient;
    out.set(d.chain, { name: d.chain, chain, deployment: d, client, protocols });
  }
  return out;
}
