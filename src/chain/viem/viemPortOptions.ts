import type { Address, Hex } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { Clock } from '../../domain/clock';
import type { FaultRegistry } from '../../domain/sandboxFaults';
import type { ChainPort } from '../../ports/chain';
import type { SandboxManifest } from '../../ports/deploymentManifest';
import type { NonceRepo } from '../../ports/store';
import type { AttestationClient } from '../cctp/attestationClient';
import type { ProtocolRegistry } from '../protocols/registry';
import type { ChainClient } from './chainClients';
import type { RpcObserver } from './observedTransport';
import type { ServiceAccounts } from './serviceAccounts';

export interface ServiceKeys {
  /** Pays native gas top-ups and relays CCTP mints. */
  gasTank: Hex;
  /** Sends demo funds (and, in the sandbox, may mint tokens). */
  faucet: Hex;
}

export interface ViemChainPortOptions {
  manifest: SandboxManifest;
  /** The lending protocols' modules the manifest's markets are read and called with (default: DEFAULT_PROTOCOLS). */
  protocols?: ProtocolRegistry;
  /** The service's accounts from the key provider; or `keys`, raw keys the local provider's accounts are built over (tests, benches). */
  accounts?: ServiceAccounts;
  keys?: ServiceKeys;
  faults?: FaultRegistry;
  /** Receipt polling interval; small for devnets. */
  pollingIntervalMs?: number;
  /** One JSON-RPC request waits this long at most (default 10 s): a hanging node is an error, not a hang. */
  rpcTimeoutMs?: number;
  /** A wallet below this native balance is topped up before it transacts. */
  minGasWei?: bigint;
  topUpWei?: bigint;
  /**
   * A chain's fee estimate (EIP-1559 caps) older than this is read again in the background while sends use it
   * (default 1 s); one older than `feeMaxAgeMs` (default 3 s) is never signed with. Replacements always read fresh fees.
   */
  feeRefreshMs?: number;
  feeMaxAgeMs?: number;
  /** Told of every JSON-RPC request to the nodes (chain, method, duration, error kind), whichever call made it. */
  onRpc?: RpcObserver;
  /**
   * The store's nonce allocator, asked at each send (gas tank and relayer,
   * faucet, wallets): several instances may sign for one account. A getter,
   * since the store starts beside the chains; until it answers (or without
   * one) the node's pending nonce is used.
   */
  nonces?: () => NonceRepo | undefined;
  /** A nonce above a chain that has not moved for this long marks a gap the allocator re-synchronises (default 5 s). */
  nonceGapMs?: number;
  /** Told each time a transaction's nonce was used by another sender first (it is signed again with a fresh one, a few times at most). */
  onNonceRetry?: (chain: ChainName, address: Address) => void;
  /**
   * The attestation service's client (default: one for the manifest's
   * `attestationApi`, else Circle's testnet service). The service never
   * signs attestations itself.
   */
  attestations?: AttestationClient;
  /** How long the route fee tiers read from the attestation service are kept (default 5 s). */
  routeFeesTtlMs?: number;
  /** The service's clock: receipt polls, nonce waits and fee caches tell time by it (default: the system clock). */
  clock?: Clock;
}

/**
 * The viem adapter: the chain port, plus its sandbox faults, its clients, a
 * way to forget the cached route fees (a test that changes them), and a send
 * that signs a call whose estimate fails at `gasIfReverts` instead of refusing
 * it (it is mined and reverts: the sandbox's injected reverts,
 * chain/sandbox/injectedReverts.ts).
 */
export type ViemChainPort = Required<Pick<ChainPort, 'sendOperation' | 'accountModel'>> &
  ChainPort & {
    faults: FaultRegistry;
    client(chain: ChainName): ChainClient;
    dropRouteFees(): void;
    sendEvenIfReverting(gasIfReverts: bigint, ...args: Parameters<ChainPort['send']>): ReturnType<ChainPort['send']>;
    /** sendOperation without the simulation's refusal: the calls run with `gasIfReverts` and a reverting one is mined (injected reverts). */
    sendOperationEvenIfReverting(
      gasIfReverts: bigint,
      ...args: Parameters<NonNullable<ChainPort['sendOperation']>>
    ): ReturnType<NonNullable<ChainPort['sendOperation']>>;
  };
