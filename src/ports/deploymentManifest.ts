import type { Address } from 'viem';
import type { ChainName, TokenAsset } from '../domain/chains';

/** Addresses of the sandbox contracts on one chain (also the shape of an rpc-mode deployment manifest). */
export interface ChainDeployment {
  chain: ChainName;
  chainId: number;
  rpcUrl: string;
  /** ERC-20 token per asset present on this chain (the API's "Assets"). */
  tokens: Partial<Record<TokenAsset, Address>>;
  /** Aave v3 Pool (the proxy callers use) and its aToken per listed asset. */
  aavePool: Address;
  aTokens: Partial<Record<TokenAsset, Address>>;
  /** Sandbox only: the rate strategy of ours behind the reserves, which the admin rate control sets. */
  aaveRateStrategy?: Address;
  /** Compound-V3-like market (base asset USDC), on the chains that have one. */
  comet: Address | null;
  /** CCTP v2: TokenMessengerV2 and MessageTransmitterV2. */
  tokenMessenger: Address;
  messageTransmitter: Address;
  /** Chainlink-like ETH/USD feed, 8 decimals. */
  ethUsdFeed: Address;
}

export interface SandboxManifest {
  /** The attestation service's signer, enabled on every MessageTransmitterV2. */
  attester: Address;
  /** Base URL of the Iris-compatible attestation service (Circle's in rpc mode; the sandbox runs its own). */
  attestationApi?: string;
  chains: Partial<Record<ChainName, ChainDeployment>>;
}
