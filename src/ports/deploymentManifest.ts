import type { Address } from 'viem';
import type { AccountModel, ChainName, LendingProtocol, TokenAsset } from '../domain/chains';

/**
 * One lending market: a protocol lending one token on one chain. The token is
 * named by its address because a symbol is not an identity: Aave's testnet
 * markets list a faucet "USDC" of Aave's own that is not Circle's USDC, and
 * `asset: "USDC"` always means Circle's (`tokens.USDC`). The protocol's own
 * contracts of the market (an Aave aToken, a Comet) are further fields, which
 * only the protocol's module (src/chain/protocols) reads.
 */
export interface ManifestMarket {
  protocol: LendingProtocol;
  asset: TokenAsset;
  /** The market's underlying token; always `tokens[asset]` of the chain. */
  token: Address;
  /** A market the sandbox adds where the real test network has none (so every strategy can be tried on every chain offline). */
  sandboxOnly?: true;
  /** The protocol's contracts of the market, by the names its module gives them (`aToken`, `comet`). */
  [field: string]: unknown;
}

/** Addresses of the contracts on one chain (the sandbox's deployment, or an rpc-mode deployment manifest). */
export interface ChainDeployment {
  chain: ChainName;
  chainId: number;
  rpcUrl: string;
  /** ERC-20 token per asset present on this chain (the API's "Assets"); USDC is Circle's. */
  tokens: Partial<Record<TokenAsset, Address>>;
  /** Aave v3 Pool (the proxy callers use); null where the chain has no Aave market. Read by the Aave module only. */
  aavePool: Address | null;
  /** Sandbox only: the rate strategy of ours behind the Aave reserves, which the admin rate control sets. */
  aaveRateStrategy?: Address;
  /** The lending markets that exist on this chain. */
  markets: ManifestMarket[];
  /** CCTP v2: TokenMessengerV2 and MessageTransmitterV2. */
  tokenMessenger: Address;
  messageTransmitter: Address;
  /** Chainlink-like ETH/USD feed, 8 decimals. */
  ethUsdFeed: Address;
  /**
   * How a wallet's calls run on this chain: '7702' one ERC-4337 user operation per batch (EIP-7702 delegated wallet,
   * bundled by the gas tank, gas paid by the paymaster); 'plain' signed transactions with native gas top-ups. Absent: 'plain'.
   */
  accountModel?: AccountModel;
  /** ERC-4337 v0.8 contracts on this chain; required when accountModel is '7702'. */
  erc4337?: Erc4337Contracts;
}

/** ERC-4337 v0.8 on one chain: the canonical EntryPoint and Simple7702Account, and the service's own paymaster. */
export interface Erc4337Contracts {
  entryPoint: Address;
  /** The EIP-7702 delegate of the service's wallets (Simple7702Account). */
  delegate: Address;
  /** The service's ServicePaymaster: it sponsors operations the gas tank signed for, from its EntryPoint deposit. */
  paymaster: Address;
}

export interface SandboxManifest {
  /** The attestation service's signer, enabled on every MessageTransmitterV2. */
  attester: Address;
  /** Base URL of the Iris-compatible attestation service (Circle's in rpc mode; the sandbox runs its own). */
  attestationApi?: string;
  chains: Partial<Record<ChainName, ChainDeployment>>;
}

/** The market of `protocol` for `asset` on the chain, if it exists. */
export function findMarket(d: ChainDeployment, protocol: LendingProtocol, asset: TokenAsset): ManifestMarket | undefined {
  return d.markets.find((m) => m.protocol === protocol && m.asset === asset);
}
