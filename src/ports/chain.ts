import type { Address, Hex, LocalAccount } from 'viem';
import type { Asset, ChainName, TokenAsset } from '../domain/chains';

/**
 * The chain port: everything the service asks of EVM chains. One adapter
 * (viem over JSON-RPC) implements it for sandbox devnets and rpc mode alike.
 * Errors are ServiceErrors: NETWORK_ERROR / TIMEOUT for node trouble,
 * INVALID_CHAIN for a chain the port does not serve or a lending market the
 * chain does not have. test/contract/chainPort.contract.ts holds every
 * implementation (the adapter and the tests' doubles) to this behaviour.
 */
import { LENDING_PROTOCOLS, type AccountModel, type LendingProtocol } from '../domain/chains';

export type { AccountModel } from '../domain/chains';

/** The domain's lending protocols (src/domain/chains.ts), as the chain port names them. */
export const PROTOCOLS = LENDING_PROTOCOLS;
export type Protocol = LendingProtocol;

export interface TokenHolding {
  asset: Asset;
  /** The token's contract; absent for the chain's native ETH. */
  token?: Address;
  /** Smallest units. */
  balance: bigint;
}

export interface PositionHolding {
  protocol: Protocol;
  asset: TokenAsset;
  /** The market's underlying token (what was supplied and comes back on withdraw). */
  token: Address;
  /** Supplied amount including accrued interest, smallest units. */
  amount: bigint;
  /**
   * The market's supply index as the position was read, ray (SUPPLY_INDEX_ONE
   * = 1): what one unit supplied at index 1 is worth now. Absent when the
   * adapter could not read it.
   */
  index?: bigint;
}

/** A supply index of 1 (ray, 1e27): the scale of PositionHolding.index and ChainPort.supplyIndex. */
export const SUPPLY_INDEX_ONE = 10n ** 27n;

/** What an address holds on one chain; zero balances are omitted. */
export interface ChainHoldings {
  chain: ChainName;
  tokens: TokenHolding[];
  positions: PositionHolding[];
}

/** A lending market's supply rate. A market is (chain, protocol, token): `asset` names the token by the API's symbol, `token` is its contract. */
export interface MarketRate {
  chain: ChainName;
  protocol: Protocol;
  asset: TokenAsset;
  token: Address;
  /** Supply APY in percent (4.2 = 4.2 %). */
  apy: number;
  /** A market the sandbox adds where the real test network has none (absent: a real market). */
  sandboxOnly?: true;
}

/** Who may move a wallet's tokens: a lending protocol (supply) or the CCTP messenger (burn). */
export type Spender = Protocol | 'bridge';

/** A transaction the engine wants on chain; the adapter encodes it against the deployment. */
export type TxRequest =
  | { kind: 'approve'; chain: ChainName; asset: TokenAsset; spender: Spender; amount: bigint }
  /** approve(spender, 0): an allowance left standing by a failed step is taken back. */
  | { kind: 'revoke'; chain: ChainName; asset: TokenAsset; spender: Spender }
  /**
   * With `permit`: the wallet's EIP-2612 permit of the amount to the protocol,
   * signed by the adapter as it sends, rides in the supply (one transaction,
   * no approve; see ChainPort.supplyPermit).
   */
  | { kind: 'supply'; chain: ChainName; protocol: Protocol; asset: TokenAsset; amount: bigint; permit?: true }
  | { kind: 'withdraw'; chain: ChainName; protocol: Protocol; asset: TokenAsset; amount: bigint | 'max' }
  /**
   * CCTP v2 depositForBurn of USDC from `chain` to `toChain`, minted to the
   * signer's own address: `maxFee` is the most the mint may keep back,
   * `minFinalityThreshold` 1000 asks for a fast attestation, 2000 for a standard one.
   */
  | { kind: 'burn'; chain: ChainName; toChain: ChainName; amount: bigint; maxFee: bigint; minFinalityThreshold: FinalityThreshold }
  /** CCTP receiveMessage on the destination chain (sent by the relayer). */
  | { kind: 'mint'; chain: ChainName; message: Hex; attestation: Hex }
  | { kind: 'transfer'; chain: ChainName; asset: TokenAsset; to: Address; amount: bigint };

export type TxKind = TxRequest['kind'];

/** CCTP v2 finality thresholds a burn may ask for: 1000 fast (attested at soft finality, for a fee), 2000 standard (hard finality). */
export type FinalityThreshold = 1000 | 2000;

/** CCTP v2 fee tiers of one route, in basis points of the burned amount (fractions allowed): `fast` for threshold 1000, `standard` for 2000. */
export interface RouteFeeTiers {
  fast: number;
  standard: number;
  /** Set while the attestation service does not answer: the tiers are its last answer, read at this instant (ISO 8601). */
  lastKnownAt?: string;
}

/** Fee tiers per (from, to) route. */
export type RouteFeeTable = Partial<Record<ChainName, Partial<Record<ChainName, RouteFeeTiers>>>>;

/** Who signs: a wallet's own account (from the key vault) or one of the service's accounts. */
export type TxSigner = LocalAccount | 'relayer' | 'faucet';

/** A signed transaction; its hash is known before it is broadcast. */
export interface SignedTx {
  chain: ChainName;
  kind: TxKind;
  txHash: Hex;
  from: Address;
  nonce: number;
  /** The signed raw transaction: persisted with the hash so recovery can rebroadcast the very same bytes (same nonce, never a second spend). */
  raw: Hex;
}

export interface TxReceipt {
  chain: ChainName;
  txHash: Hex;
  status: 'success' | 'reverted';
  gasUsed: bigint;
  /** gasUsed × effectiveGasPrice (+ L1 fee when present), in wei. */
  gasCostWei: bigint;
  /** gasCostWei at the chain's ETH/USD feed. */
  gasCostUsd: number;
  blockNumber: bigint;
  /** A CCTP mint only: what its MintAndWithdraw delivered to the recipient (the burned amount less the fee kept back), smallest units. */
  minted?: bigint;
  /** The mined transaction was a bundle: the operation's own outcome (`status` above is the operation's success). */
  operation?: OperationOutcome;
  /** Mints in a bundle: what each MintAndWithdraw delivered, in log order (= the order of the mint calls). `minted` stays the first. */
  mintedEach?: bigint[];
}

/** What EntryPoint v0.8's UserOperationEvent (and UserOperationRevertReason) of a bundle said about its operation. */
export interface OperationOutcome {
  userOpHash: Hex;
  success: boolean;
  /** Index in the batch of the call that reverted (from ExecuteError(index, error)), when it failed in a call. */
  failedCall?: number;
  /** The revert reason, decoded when possible. */
  reason?: string;
  /** What the EntryPoint charged the paymaster's deposit (wei), and the gas it counted. */
  actualGasCost: bigint;
  actualGasUsed: bigint;
}

/** A user operation bundled into one transaction of the gas tank (handleOps): txHash, raw, nonce and from are the bundle's. */
export interface SignedOperation extends SignedTx {
  userOpHash: Hex;
  /** The wallet's EntryPoint nonce the operation used. */
  opNonce: bigint;
  /** An EIP-7702 authorization rode in the bundle (the wallet delegated with it). */
  delegated: boolean;
}

/** A CCTP message as the attestation service completed it (nonce and executed fields filled), with the attestation to mint it with. */
export interface Attested {
  message: Hex;
  attestation: Hex;
  /** The fee the mint keeps back, as the attestation service filled it into the message (smallest units); absent when unknown. */
  feeExecuted?: bigint;
}

/** What gas costs on one chain now: the price per gas a transaction pays (eth_gasPrice) and ETH in USD at the chain's own feed. */
export interface GasQuote {
  chain: ChainName;
  gasPriceWei: bigint;
  ethUsd: number;
}

/**
 * How a gas figure was obtained: `estimated` by eth_estimateGas on the chain
 * as it stands; `simulated` by eth_call under a state override that gives the
 * sender the funds and allowance an earlier transaction brings (the least gas
 * that succeeds); `typical` a per-kind figure measured on the sandbox devnets,
 * when neither can run (a CCTP mint needs the attestation of its burn).
 */
export type GasEstimateMethod = 'estimated' | 'simulated' | 'typical';

export interface GasEstimate {
  gas: bigint;
  method: GasEstimateMethod;
}

/** Funds a simulated transaction assumes its sender holds, with `spender` allowed to take them (granted by a state override). */
export interface AssumedFunds {
  asset: TokenAsset;
  amount: bigint;
  spender: Spender;
}

export interface ChainPort {
  /** Active chains this deployment serves. */
  readonly chains: readonly ChainName[];
  /** Token balances (native included) and lending positions of `address` on `chains`, chains read in parallel; a chain the port does not serve is left out (not an error). */
  holdings(address: Address, chains: readonly ChainName[]): Promise<ChainHoldings[]>;
  /**
   * A lending market's supply index (ray) at `blockNumber`, the latest block when absent: how much a
   * unit supplied has grown (Aave's normalized income, Comet's base supply index). Optional: an adapter
   * without it leaves earnings to the balance − principal rule.
   */
  supplyIndex?(chain: ChainName, protocol: Protocol, asset: TokenAsset, blockNumber?: bigint): Promise<bigint>;
  /** Supply APYs read on chain for every (chain, protocol, asset) market. */
  rates(): Promise<MarketRate[]>;
  /** CCTP fee tiers per route, as the attestation service's fee route answers them (cached briefly by the adapter). */
  routeFees(): Promise<RouteFeeTable>;
  /** USD price of `asset` from `chain`'s own feed (stablecoins 1.0). */
  priceUsd(asset: Asset, chain: ChainName): Promise<number>;
  /**
   * Signs `tx`, hands the signed transaction to `onSigned` (persist its hash
   * there), then broadcasts it. Wallet signers are topped up with native gas
   * first; `onGasTopUp` is told what that top-up cost the gas tank (the value
   * sent and its own gas), once it is mined, whatever becomes of `tx`. The
   * hash is never broadcast before `onSigned` resolves; when `onSigned`
   * rejects, so does send, nothing is broadcast and the nonce is not spent.
   * A transaction the node's estimation says would revert is refused with
   * WouldRevertError before anything is signed.
   */
  send(signer: TxSigner, tx: TxRequest, onSigned: (signed: SignedTx) => Promise<void>, onGasTopUp?: (wei: bigint) => void): Promise<SignedTx>;
  /**
   * Broadcasts an already signed transaction again (recovery); "already known" is success; NonceConsumedError when it can never land.
   * For a bundle of a user operation, NonceConsumedError also needs the operation's EntryPoint nonce not to have moved: an operation
   * that landed (in another bundle) is never reported consumed, so it is never signed a second time.
   */
  rebroadcast(chain: ChainName, raw: Hex): Promise<void>;
  /** Waits for a receipt; null when the chain does not know the hash after `timeoutMs`. */
  receipt(chain: ChainName, txHash: Hex, timeoutMs?: number): Promise<TxReceipt | null>;
  /**
   * The receipt of whichever of `hashes` (one nonce: the sent bytes and their
   * replacements) is mined, polled for up to `waitMs` (0: looked up once);
   * null while none is. Never a timeout error: not mined yet is an answer.
   */
  findReceipt(chain: ChainName, hashes: readonly Hex[], waitMs: number): Promise<TxReceipt | null>;
  /** Whether the node knows `txHash`, pending or mined. */
  isKnown(chain: ChainName, txHash: Hex): Promise<boolean>;
  /**
   * Signs the transaction of `raw` again at the same nonce with both fee caps
   * raised by at least the nodes' minimum bump (and to the current estimate
   * when higher), hands it to `onSigned`, then broadcasts it. Whichever of the
   * two is mined is the outcome; a nonce already used is not an error here.
   */
  replace(signer: TxSigner, sent: Pick<SignedTx, 'chain' | 'kind' | 'raw'>, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx>;
  /**
   * The transaction that received this CCTP message on `chain` (whoever sent
   * it), or null while its source nonce is unused there: a mint of a received
   * message is done already, and signing another would only revert.
   */
  messageReceived(chain: ChainName, message: Hex): Promise<Hex | null>;
  /**
   * The message and attestation of a mined burn, fetched from the attestation
   * service (polled until complete); its trouble is transient (NETWORK_ERROR,
   * TIMEOUT) unless the service refuses outright (BRIDGE_FAILED).
   */
  attest(chain: ChainName, burnTxHash: Hex): Promise<Attested>;
  /** The gas price and the ETH/USD price of `chain` now (what a transaction sent now would pay per gas, in wei and in USD). */
  gasQuote(chain: ChainName): Promise<GasQuote>;
  /**
   * Gas `tx` would use if `from` sent it now; nothing is signed or sent.
   * Without `assume`: eth_estimateGas (`estimated`). With `assume` (funds an
   * earlier transaction of the plan brings, and the allowance its approve
   * gives): eth_call under a state override granting them (`simulated`). A
   * mint, or a transaction neither can run, gets the typical figure of its
   * kind (`typical`).
   */
  estimateGas(from: Address, tx: TxRequest, assume?: AssumedFunds): Promise<GasEstimate>;
  /**
   * Whether a supply of `asset` to `protocol` on `chain` can take the wallet's
   * EIP-2612 permit instead of an approve (the protocol has a permit supply
   * and the market's token signs permits): a `supply` request with `permit`
   * is then one transaction. Absent (or no market): false.
   */
  supplyPermit?(chain: ChainName, protocol: Protocol, asset: TokenAsset): boolean;
  /** The account model of `chain` as the deployment says (absent there, or no such method: `plain`). */
  accountModel?(chain: ChainName): AccountModel;
  /**
   * One user operation of `wallet` on `chain` (a `7702` chain): `calls`,
   * encoded as the plain path would send them, in order in one
   * `executeBatch`. The wallet's delegation is read first; when it is missing
   * or points elsewhere, an authorization signed by `wallet` rides in the
   * bundle. The wallet signs the operation, the paymaster sponsors it, and the
   * gas tank bundles it (`handleOps`) at its shared nonce. `onSigned` gets the
   * bundle before it is broadcast (persist there, as with send). Refused with
   * WouldRevertError (kind and index of the failing call) before anything is
   * signed when simulation says a call reverts.
   */
  sendOperation?(
    wallet: LocalAccount,
    chain: ChainName,
    calls: readonly TxRequest[],
    onSigned: (signed: SignedOperation) => Promise<void>,
  ): Promise<SignedOperation>;
  /** Releases clients and timers. */
  close(): Promise<void>;
}

/**
 * Thrown by `rebroadcast` when the transaction can never land: the chain does
 * not know its hash and its nonce is already used by another transaction. Its
 * effect did not happen, so the caller may sign the same request again.
 */
export class NonceConsumedError extends Error {
  override readonly name = 'NonceConsumedError';
  constructor(
    readonly chain: ChainName,
    readonly txHash: Hex,
  ) {
    super(`transaction ${txHash} on ${chain} was never mined and its nonce is used`);
  }
}

/**
 * The node's gas estimation says the transaction would revert: it was not
 * signed or sent, and no gas was spent. `reason` is the node's revert reason
 * when it gave one.
 */
export class WouldRevertError extends Error {
  override readonly name = 'WouldRevertError';
  constructor(
    readonly chain: ChainName,
    readonly kind: TxKind,
    readonly reason: string,
    /** In a user operation: the index of the failing call in its batch. */
    readonly callIndex?: number,
  ) {
    super(`${kind} on ${chain} would revert: ${reason}`);
  }
}
