import type { Account, Address, Chain, Hash, Hex, HttpTransport, PrivateKeyAccount, PublicClient, Transport, WalletClient } from 'viem';
import type { z } from 'zod';
import type { ChainName, TokenAsset } from '../../domain/chains';
import type { ChainDeployment, ManifestMarket } from '../../ports/deploymentManifest';

/** One contract call: what a transaction (or, batched, one call of a user operation) carries. */
export interface Call {
  to: Address;
  data: Hex;
}

/** An EIP-2612 permit of the supplier's tokens to the protocol's spender, signed by the supplier (`v`, `r`, `s`) and valid until `deadline` (unix seconds). */
export interface TokenPermit {
  deadline: bigint;
  v: number;
  r: Hex;
  s: Hex;
}

/** What a module reads the chain with: the chain's public client and its deployment. */
export interface ProtocolReader {
  name: ChainName;
  client: PublicClient;
  deployment: ChainDeployment;
}

/** What a module deploys its sandbox market with (chain/sandbox/deploy.ts hands it over). */
export interface SandboxDeployContext {
  name: ChainName;
  public: PublicClient<HttpTransport, Chain>;
  wallet: WalletClient<HttpTransport, Chain, PrivateKeyAccount>;
  owner: Address;
  /** The CREATE2 factory: a redeploy on the same chain finds each contract where it left it. */
  factory: Address;
  /** Deploys `initCode` through the factory under `label` (or finds it there). */
  create2(label: string, initCode: Hex): Promise<Address>;
  /** Tops `holder`'s balance of `token` up to at least `amount`. */
  ensureLiquidity(token: Address, holder: Address, amount: bigint): Promise<void>;
  /** Waits for the transaction and fails unless it succeeded. */
  confirm(pending: Promise<Hash>): Promise<void>;
  /** The sandbox contracts compiled from contracts/ (artifacts.json), by name. */
  bytecodeOf(contract: string): Hex;
}

/** The markets a module deployed on one chain, and the deployment-wide fields it owns (Aave: its Pool). */
export interface SandboxMarkets {
  markets: ManifestMarket[];
  deployment?: Partial<ChainDeployment>;
}

/** What the sandbox's admin rate control needs to set a market's rate. */
export interface RateControl {
  reader: ProtocolReader;
  wallet: WalletClient<Transport, Chain | undefined, Account>;
  market: ManifestMarket;
  apy: number;
}

/**
 * A lending protocol, as the service uses it: one module per protocol
 * (chain/protocols/<name>.ts) answers every protocol-specific question, and
 * the rest of the service asks it through the registry (registry.ts) without
 * branching on a name. Calls are `{to, data}` lists, so a caller may send
 * them one transaction each or put them in one batch.
 */
export interface LendingProtocolModule {
  /** The protocol's name, as the API and the manifest spell it. */
  readonly name: string;
  /** The market's own fields in a deployment manifest (besides protocol, asset, token, sandboxOnly), as a zod shape. */
  readonly marketFields: z.ZodRawShape;
  /** Deployment-wide fields the protocol owns in a manifest (Aave: `aavePool`), as a zod shape. */
  readonly deploymentFields?: z.ZodRawShape;
  /** A manifest problem of the market on the deployment (a field it needs that is missing), or null. */
  checkMarket?(d: ChainDeployment, m: ManifestMarket): string | null;
  /** Gas of a supply and of a withdraw of everything, measured on the sandbox devnets (TYPICAL_GAS holds the largest). */
  readonly typicalGas: { supply: bigint; withdraw: bigint };

  /** Who takes the tokens on supply (the approve's spender). */
  spender(d: ChainDeployment, m: ManifestMarket): Address;
  /** Where the position is read: an ERC-20 `balanceOf` of the supplier, interest included. */
  position(m: ManifestMarket): Address;
  /** The supply of `amount` to the market for `onBehalfOf` (the call alone; `supplyCalls` puts the approve before it). */
  supplyCall(d: ChainDeployment, m: ManifestMarket, amount: bigint, onBehalfOf: Address): Call;
  /**
   * The supply of `amount` in one call that takes the supplier's EIP-2612
   * permit of the market's token instead of a standing allowance (Aave:
   * `supplyWithPermit`). Absent: the protocol has none, a deposit is approve
   * + supply. Whether the token signs permits is the token's matter (the
   * chain adapter knows which do).
   */
  supplyWithPermitCall?(d: ChainDeployment, m: ManifestMarket, amount: bigint, onBehalfOf: Address, permit: TokenPermit): Call;
  /** The withdraw of `amount` (or everything) to `to`. */
  withdrawCall(d: ChainDeployment, m: ManifestMarket, amount: bigint | 'max', to: Address): Call;

  /** The market's supply APY in percent. */
  readApy(r: ProtocolReader, m: ManifestMarket): Promise<number>;
  /** The market's supply index at `blockNumber` (absent: the latest), ray (1e27 = 1). */
  readSupplyIndex(r: ProtocolReader, m: ManifestMarket, blockNumber?: bigint): Promise<bigint>;
  /** The token the market's contract lends, read from the chain (checked against the manifest at start). */
  readLentToken(r: ProtocolReader, m: ManifestMarket): Promise<Address>;

  /** Sandbox only. */
  readonly sandbox: {
    /** Deploys (or finds) the protocol's markets of `assets` on one devnet, seeded to pay interest. */
    deploy(ctx: SandboxDeployContext, slots: readonly { asset: TokenAsset; token: Address; sandboxOnly: boolean }[]): Promise<SandboxMarkets>;
    /** Sets the market's supply APY (the admin rate control); answers the last transaction's hash. */
    setRate(o: RateControl): Promise<Hash>;
  };
}
