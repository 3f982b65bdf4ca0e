import {
  BaseError,
  ContractFunctionRevertedError,
  EstimateGasExecutionError,
  HttpRequestError,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  parseEventLogs,
  encodeAbiParameters,
  pad,
  toHex,
  keccak256,
  parseEther,
  parseTransaction,
  slice,
  type TransactionReceipt,
  type Address,
  type Hex,
  type LocalAccount,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { LRUCache } from 'lru-cache';
import type { ChainName } from '../../domain/chains';
import { CHAINS, STABLECOINS } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { networkError } from '../../domain/errors/chain';
import { NonceConsumedError, WouldRevertError, type AssumedFunds, type ChainPort, type GasEstimate, type RouteFeeTable, type SignedTx, type TxReceipt, type TxRequest, type TxSigner } from '../../ports/chain';
import { TYPICAL_GAS } from '../../ports/typicalGas';
import type { SandboxManifest } from '../../ports/deploymentManifest';
import { messageTransmitterV2Abi, sandboxPriceFeedAbi, tokenMessengerV2Abi } from '../sandbox/abis';
import { createAttestationClient, IRIS_SANDBOX_URL, type AttestationClient } from '../cctp/attestationClient';
import { FINALITY_FAST, FINALITY_STANDARD } from '../cctp/messageV2';
import { attestationUnavailable } from '../../domain/errors/attestation';
import { FaultRegistry } from '../../domain/sandboxFaults';
import { createChainClients, type ChainClient } from './chainClients';
import { readHoldings } from './readHoldings';
import { readRates } from './readRates';
import { encodeTx, spenderAddress, token } from './encodeTx';
import { onChain } from './translateError';
import { KeyedMutex } from './keyedMutex';
import type { RpcObserver } from './observedTransport';
import { nonceKey, takeNonce, type HeldNonce } from './sharedNonces';
import type { NonceRepo } from '../../ports/store';

export interface ServiceKeys {
  /** Pays native gas top-ups and relays CCTP mints. */
  gasTank: Hex;
  /** Sends demo funds (and, in the sandbox, may mint tokens). */
  faucet: Hex;
}

export interface ViemChainPortOptions {
  manifest: SandboxManifest;
  keys: ServiceKeys;
  faults?: FaultRegistry;
  /** Receipt polling interval; small for devnets. */
  pollingIntervalMs?: number;
  /** One JSON-RPC request waits this long at most (default 10 s): a hanging node is an error, not a hang. */
  rpcTimeoutMs?: number;
  /** A wallet below this native balance is topped up before it transacts. */
  minGasWei?: bigint;
  topUpWei?: bigint;
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
  /** How long the route fee tiers read from the attestation service are kept (default 30 s). */
  routeFeesTtlMs?: number;
}

/**
 * How long a gas top-up is waited for before the step retries: long enough
 * for a devnet stalled by the sandbox fault (at most 600 s) to resume.
 */
const TOP_UP_WAIT_MS = 15 * 60_000;

/** Fee caps of a replacement: 12.5 % over the replaced ones (nodes ask for at least 10 %), plus one wei. */
const bumped = (fee: bigint | undefined): bigint => (fee === undefined ? 0n : (fee * 1125n) / 1000n + 1n);
const maxOf = (...xs: bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));

/** A receipt lookup that answers null for a transaction not mined (yet) instead of throwing. */
const receiptOrNull = (p: Promise<TransactionReceipt>): Promise<TransactionReceipt | null> =>
  p.catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return null;
    throw e;
  });

/** The tier of a fee route answer at `threshold`, in bps (a route without it is a service that does not offer the tier: free is not assumed). */
function tierBps(tiers: readonly { finalityThreshold: number; minimumFeeBps: number }[], threshold: number, route: string): number {
  const tier = tiers.find((t) => t.finalityThreshold === threshold);
  if (tier === undefined) throw new ServiceError('BRIDGE_FAILED', `The attestation service has no fee tier ${threshold} for ${route}`, { details: { service: 'attestation', route, threshold } });
  return tier.minimumFeeBps;
}

/** How far back the log of a received CCTP message is looked for (its mint follows its burn by minutes, not days). */
const RECEIVE_LOOKBACK_BLOCKS = 50_000n;

/** Gas limit used when estimation says the call reverts: it is sent anyway so the revert is on chain and in a receipt. */
const REVERTING_GAS_LIMIT = 1_000_000n;

/** A node error that says the transaction was mined and reverted (Hardhat automine). */
function minedWithRevert(e: unknown): boolean {
  const text = e instanceof BaseError ? `${e.message} ${e.details}` : String(e);
  return /VM Exception while processing transaction/i.test(text);
}

/** The node refused the nonce (another sender used it first). */
function nonceTaken(e: unknown): boolean {
  const cause = (e as { cause?: unknown }).cause ?? e;
  const text = cause instanceof BaseError ? `${cause.message} ${cause.details}` : String((cause as Error)?.message ?? cause);
  return /nonce too low|nonce has already been used|replacement transaction underpriced/i.test(text);
}

/** Tries at sending one transaction when its nonce keeps being taken by another sender of the same account. */
const NONCE_ATTEMPTS = 6;

/** How often a sender waiting for the nonces below its own (taken by another instance) reads the chain's pending nonce. */
const NONCE_WAIT_POLL_MS = 50;

/**
 * Whether a send refused for a taken nonce should be tried again: a short, growing,
 * jittered pause first, so two instances draining their queues on one shared account
 * (the gas tank) stop reading the same pending nonce in lockstep.
 */
async function retryTakenNonce(e: unknown, attempt: number): Promise<boolean> {
  if (attempt >= NONCE_ATTEMPTS || !nonceTaken(e)) return false;
  await new Promise((r) => setTimeout(r, Math.random() * 25 * attempt));
  return true;
}

function isExecutionRevert(e: unknown): boolean {
  return e instanceof BaseError && (e instanceof EstimateGasExecutionError || e.walk((x) => x instanceof ContractFunctionRevertedError) !== null || /revert/i.test(e.message));
}

/** The node's revert reason, as specific as the error carries it. */
function revertReason(e: unknown): string {
  if (!(e instanceof BaseError)) return String(e);
  const reverted = e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  return reverted?.reason ?? e.details ?? e.shortMessage;
}

/**
 * Where a token keeps `balanceOf` and `allowance`, for the simulation's state
 * override: Circle's USDC (FiatTokenV2_2, the sandbox's and the real
 * networks') keeps them in slots 9 (`balanceAndBlacklistStates`) and 10
 * (`allowed`); the sandbox's other tokens (contracts/SandboxToken.sol) in 4
 * and 5. Against a token laid out otherwise the simulated call reverts and
 * the typical figure is used instead.
 */
const TOKEN_SLOTS: Readonly<Record<'USDC' | 'other', { balance: bigint; allowance: bigint }>> = {
  USDC: { balance: 9n, allowance: 10n },
  other: { balance: 4n, allowance: 5n },
};
/** Gas a simulation may try at most (far above any transaction of the service). */
const SIMULATION_GAS_CAP = 3_000_000n;

/** The storage slot of `mapping(address => …)` at `slot`, for `key`. */
const mappingSlot = (key: Address, slot: bigint | Hex): Hex =>
  keccak256(typeof slot === 'bigint' ? encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]) : encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [key, slot]));

/** Node trouble (the node did not answer) as opposed to the call failing in the EVM. */
const isTransportError = (e: unknown): boolean => e instanceof BaseError && e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError) !== null;

/** The viem adapter: the chain port, plus its sandbox faults, its clients, and a way to forget the cached route fees (a test that changes them). */
export type ViemChainPort = ChainPort & { faults: FaultRegistry; client(chain: ChainName): ChainClient; dropRouteFees(): void };

/** The ChainPort over viem and JSON-RPC, for sandbox devnets and configured RPC endpoints alike. */
export function createViemChainPort(o: ViemChainPortOptions): ViemChainPort {
  const deployments = Object.values(o.manifest.chains).filter((d) => d !== undefined);
  const pollMs = o.pollingIntervalMs ?? 100;
  const clients = createChainClients(deployments, pollMs, o.rpcTimeoutMs, o.onRpc);
  const accountOf = (signer: TxSigner): LocalAccount => (signer === 'relayer' ? gasTank : signer === 'faucet' ? faucet : signer);
  const faults = o.faults ?? new FaultRegistry();
  const gasTank = privateKeyToAccount(o.keys.gasTank);
  const faucet = privateKeyToAccount(o.keys.faucet);
  const attestations =
    o.attestations ??
    createAttestationClient({
      baseUrl: o.manifest.attestationApi ?? IRIS_SANDBOX_URL,
      // devnets attest in milliseconds: poll about as often as receipts are
      poll: { initialMs: Math.min(pollMs, 250), maxMs: 5_000 },
      // the engine retries a TIMEOUT (a mint after a confirmed burn, for as long as it takes), noting each try on the step
      timeoutMs: 60_000,
    });
  const nonceLocks = new KeyedMutex();
  const gapMs = o.nonceGapMs ?? 5_000;
  const minGas = o.minGasWei ?? parseEther('0.01');
  const topUp = o.topUpWei ?? parseEther('0.1');

  const clientOf = (chain: ChainName): ChainClient => {
    const c = clients.get(chain);
    if (!c) throw new ServiceError('INVALID_CHAIN', `Chain ${chain} is not configured`, { details: { chain } });
    return c;
  };

  /** Every node call starts here: injected transport faults first, then viem errors translated. */
  const call = <T>(chain: ChainName, fn: (c: ChainClient) => Promise<T>): Promise<T> =>
    onChain(chain, async () => {
      faults.throwTransportFault(chain);
      return fn(clientOf(chain));
    });

  /** ETH/USD per chain for 10 s; concurrent misses share one feed read (lru-cache fetch), so an expiry under load costs one read. */
  const prices = new LRUCache<ChainName, number>({
    max: 16,
    ttl: 10_000,
    fetchMethod: (chain) =>
      call(chain, async (c) => {
        const [, answer] = await c.client.readContract({ address: c.deployment.ethUsdFeed, abi: sandboxPriceFeedAbi, functionName: 'latestRoundData' });
        return Number(answer) / 1e8;
      }),
  });

  async function ethUsd(chain: ChainName): Promise<number> {
    const price = await prices.fetch(chain);
    if (price === undefined) throw new Error(`no ETH/USD price for ${chain}`);
    return price;
  }

  const pendingNonce = (chain: ChainName, address: Address): Promise<number> => call(chain, (x) => x.client.getTransactionCount({ address, blockTag: 'pending' }));

  /**
   * The nonce a transaction of `account` signs with: from the store's
   * allocator when there is one, so instances sharing the database never sign
   * two transactions with one nonce: the gas tank (also the relayer) and the
   * faucet are shared by every instance, and a wallet's intents may run on
   * two instances at once (two requests through a load balancer). Without an
   * allocator, the node's pending nonce. Null when another sender used it meanwhile.
   */
  async function nextNonce(chain: ChainName, account: LocalAccount, pending: number): Promise<HeldNonce | null> {
    const repo = o.nonces?.();
    if (repo === undefined) return { nonce: pending, release: async () => undefined };
    const key = nonceKey(clientOf(chain).chain.id, account.address);
    return takeNonce({ repo, key, pending, readPending: () => pendingNonce(chain, account.address), gapMs, pollMs: Math.min(pollMs, NONCE_WAIT_POLL_MS) });
  }

  /**
   * Sends one transaction of `account` under its per-chain lock (this
   * process's order): `prepare` reads what signing needs and may refuse
   * before a nonce is taken; `sign` signs with the nonce (and persists).
   * A nonce another sender used first is signed again with a fresh one; one
   * refused for another reason is given back. Resolves with what was sent.
   */
  async function sendWithNonce<P, S extends { raw: Hex }>(chain: ChainName, account: LocalAccount, prepare: () => Promise<P>, sign: (nonce: number, prepared: P) => Promise<S>): Promise<S> {
    return nonceLocks.run(`${chain}:${account.address}`, async () => {
      for (let attempt = 1; ; attempt++) {
        const [pending, prepared] = await Promise.all([pendingNonce(chain, account.address), prepare()]);
        const held = await nextNonce(chain, account, pending);
        let failure: unknown;
        if (held === null) {
          failure = networkError(chain, new Error('nonce too low: another sender used it while the nonces below it were awaited'));
        } else {
          let signed: S;
          try {
            signed = await sign(held.nonce, prepared);
          } catch (e) {
            // Not persisted (the store refused it): the nonce goes back, or the next send would wait out a gap. Were the
            // bytes persisted after all (an answer lost), their nonce goes to another transaction and the engine, finding
            // it consumed, signs that step again (NonceConsumedError): nothing is sent twice.
            await held.release().catch(() => undefined);
            throw e;
          }
          try {
            await broadcast(chain, signed.raw);
            return signed;
          } catch (e) {
            failure = e;
            // never broadcast: the nonce goes back, no gap is left (best effort: the allocator may be down too)
            if (!nonceTaken(e)) await held.release().catch(() => undefined);
          }
        }
        if (nonceTaken(failure)) o.onNonceRetry?.(chain, account.address);
        if (!(await retryTakenNonce(failure, attempt))) throw failure;
      }
    });
  }

  /** Signs with the signer's next nonce, hands the hash over, then broadcasts. */
  async function signAndSend(account: LocalAccount, tx: TxRequest, onSigned: (s: SignedTx) => Promise<void>): Promise<SignedTx> {
    const c = clientOf(tx.chain);
    const sabotage = (tx.kind === 'burn' && faults.take(tx.chain, 'bridge-revert')) || (tx.kind === 'supply' && faults.take(tx.chain, 'deposit-revert'));
    const { to, data } = encodeTx(c.deployment, tx, account.address, sabotage);
    const prepare = () =>
      Promise.all([
        call(tx.chain, (x) => x.client.estimateFeesPerGas()),
        call(tx.chain, (x) => x.client.estimateGas({ account: account.address, to, data })).then(
          (g) => (g * 12n) / 10n,
          (e) => {
            // Injected sandbox reverts are meant to be mined (tests of mined reverts); a genuine
            // estimation revert is refused here, before signing: sending it would only burn gas.
            if (sabotage) return REVERTING_GAS_LIMIT;
            if (isExecutionRevert(e)) throw new WouldRevertError(tx.chain, tx.kind, revertReason(e));
            throw e;
          },
        ),
      ]);
    // Another process may share a service account (tests, several instances): a nonce taken
    // under our feet is re-signed with a fresh one; the rejected hash never reached the chain.
    return sendWithNonce(tx.chain, account, prepare, async (nonce, [fees, gas]): Promise<SignedTx> => {
      const raw = await account.signTransaction({
        chainId: c.chain.id,
        type: 'eip1559',
        to,
        data,
        nonce,
        gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      const signed: SignedTx = { chain: tx.chain, kind: tx.kind, txHash: keccak256(raw), from: account.address, nonce, raw };
      await onSigned(signed);
      return signed;
    });
  }

  /**
   * Sends raw bytes. Automining devnets answer a mined-but-reverted transaction
   * with an error; it is on chain all the same and its receipt tells the revert.
   */
  async function broadcast(chain: ChainName, raw: Hex): Promise<void> {
    try {
      await call(chain, (x) => x.client.sendRawTransaction({ serializedTransaction: raw }));
    } catch (e) {
      if (minedWithRevert(e)) return;
      throw e;
    }
  }

  /** Tops a wallet up with native gas from the gas tank, and waits for it to land. */
  /** Tops `address` up with native gas when it runs low; what the tank paid (value and the top-up's own gas), 0 when nothing was sent. */
  async function ensureGas(chain: ChainName, address: Address): Promise<bigint> {
    const balance = await call(chain, (c) => c.client.getBalance({ address }));
    if (balance >= minGas) return 0n;
    const c = clientOf(chain);
    const { raw } = await sendWithNonce(
      chain,
      gasTank,
      () => call(chain, (x) => x.client.estimateFeesPerGas()),
      async (nonce, fees) => ({ raw: await gasTank.signTransaction({ chainId: c.chain.id, type: 'eip1559', to: address, value: topUp, nonce, gas: 21_000n, ...fees }) }),
    ).catch((e: unknown) => {
      // nothing was signed for the caller yet: contention on the tank is transient, the engine retries with back-off
      throw nonceTaken(e) ? networkError(chain, e) : e;
    });
    const receipt = await call(chain, (x) => x.client.waitForTransactionReceipt({ hash: keccak256(raw), timeout: TOP_UP_WAIT_MS }));
    return topUp + receipt.gasUsed * receipt.effectiveGasPrice;
  }

  /** A node receipt in the port's terms, its gas priced at the chain's own feed. */
  async function toReceipt(chain: ChainName, r: TransactionReceipt): Promise<TxReceipt> {
    const l1Fee = (r as { l1Fee?: bigint | null }).l1Fee ?? 0n;
    const gasCostWei = r.gasUsed * r.effectiveGasPrice + l1Fee;
    const usd = await ethUsd(chain);
    return {
      chain,
      txHash: r.transactionHash,
      status: r.status,
      gasUsed: r.gasUsed,
      gasCostWei,
      gasCostUsd: Math.round((Number(gasCostWei) / 1e18) * usd * 1e6) / 1e6,
      blockNumber: r.blockNumber,
      ...mintedBy(chain, r),
    };
  }

  /** What the chain's token messenger minted to the recipient in `r` (a CCTP mint), if it did. */
  function mintedBy(chain: ChainName, r: TransactionReceipt): { minted?: bigint } {
    const messenger = clientOf(chain).deployment.tokenMessenger.toLowerCase();
    const logs = parseEventLogs({ abi: tokenMessengerV2Abi, logs: r.logs, eventName: 'MintAndWithdraw' }).filter((l) => l.address.toLowerCase() === messenger);
    if (logs.length === 0) return {};
    return { minted: logs.reduce((sum, l) => sum + l.args.amount, 0n) };
  }

  /** Fee tiers of every route, kept `routeFeesTtlMs`; concurrent misses share one read of the attestation service. */
  const feeTables = new LRUCache<'all', RouteFeeTable>({
    max: 1,
    ttl: o.routeFeesTtlMs ?? 30_000,
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

  /**
   * The least gas with which `to`/`data` succeeds when `from` holds `assume`
   * (eth_call under a state override; Hardhat's eth_estimateGas takes none):
   * a search between 21,000 and the cap, to 0.5 %. Null when it fails even
   * with the cap (it would revert, or the token is laid out otherwise).
   */
  async function simulateGas(chain: ChainName, from: Address, to: Address, data: Hex, assume: AssumedFunds, typical: bigint): Promise<bigint | null> {
    const d = clientOf(chain).deployment;
    const tokenAddress = token(d, assume.asset);
    const amount = pad(toHex(assume.amount));
    const slots = TOKEN_SLOTS[assume.asset === 'USDC' ? 'USDC' : 'other'];
    const stateOverride = [
      {
        address: tokenAddress,
        stateDiff: [
          { slot: mappingSlot(from, slots.balance), value: amount },
          { slot: mappingSlot(spenderAddress(d, assume.spender, assume.asset), mappingSlot(from, slots.allowance)), value: amount },
        ],
      },
      { address: from, balance: parseEther('1') },
    ];
    const succeeds = (gas: bigint): Promise<boolean> =>
      call(chain, (c) =>
        c.client.call({ account: from, to, data, gas, stateOverride }).then(
          () => true,
          (e: unknown) => {
            if (isTransportError(e)) throw e;
            return false;
          },
        ),
      );
    let hi = typical * 2n;
    if (!(await succeeds(hi))) {
      hi = SIMULATION_GAS_CAP;
      if (!(await succeeds(hi))) return null;
    }
    let lo = 21_000n;
    while (hi - lo > hi / 200n) {
      const mid = (lo + hi) / 2n;
      if (await succeeds(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  const port: ViemChainPort = {
    chains: deployments.map((d) => d.chain),
    faults,
    client: clientOf,

    holdings(address, chains) {
      return Promise.all(chains.filter((ch) => clients.has(ch)).map((ch) => call(ch, (c) => readHoldings(c, address))));
    },

    async rates() {
      const perChain = await Promise.all(deployments.map((d) => call(d.chain, (c) => readRates(c))));
      return perChain.flat();
    },

    async routeFees() {
      const table = await feeTables.fetch('all');
      if (table === undefined) throw new Error('no route fee table');
      return table;
    },

    dropRouteFees() {
      feeTables.clear();
    },

    async priceUsd(asset, chain) {
      if (STABLECOINS.includes(asset)) return 1;
      return ethUsd(chain);
    },

    async send(signer: TxSigner, tx, onSigned, onGasTopUp) {
      const account = accountOf(signer);
      if (typeof signer === 'object') {
        const toppedUp = await ensureGas(tx.chain, account.address);
        if (toppedUp > 0n) onGasTopUp?.(toppedUp);
      }
      return signAndSend(account, tx, onSigned);
    },

    async rebroadcast(chain, raw) {
      try {
        await broadcast(chain, raw);
      } catch (e) {
        if (/already known|known transaction/i.test(`${(e as Error).message} ${(e as BaseError).details ?? ''}`)) return;
        if (!nonceTaken(e)) throw e;
        // The nonce is used: either by these very bytes (then the chain knows the hash) or by another transaction.
        const txHash = keccak256(raw);
        const known = await call(chain, (c) => c.client.getTransaction({ hash: txHash })).catch(() => null);
        if (known) return;
        throw new NonceConsumedError(chain, txHash);
      }
    },

    async receipt(chain, txHash, timeoutMs = 60_000): Promise<TxReceipt | null> {
      const r = await call(chain, async (c) => {
        const known = await c.client.getTransaction({ hash: txHash }).catch(() => null);
        if (!known) return null;
        return c.client.waitForTransactionReceipt({ hash: txHash, timeout: timeoutMs });
      });
      return r ? toReceipt(chain, r) : null;
    },

    async findReceipt(chain, hashes, waitMs) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const mined = await call(chain, async (c) => {
          const found = await Promise.all(hashes.map((hash) => receiptOrNull(c.client.getTransactionReceipt({ hash }))));
          return found.find((r) => r !== null) ?? null;
        });
        if (mined) return toReceipt(chain, mined);
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await new Promise((r) => setTimeout(r, Math.min(pollMs, left)));
      }
    },

    async isKnown(chain, txHash) {
      return call(chain, (c) =>
        c.client.getTransaction({ hash: txHash }).then(
          () => true,
          (e: unknown) => {
            if (e instanceof TransactionNotFoundError) return false;
            throw e;
          },
        ),
      );
    },

    async replace(signer, sent, onSigned) {
      const account = accountOf(signer);
      const c = clientOf(sent.chain);
      const before = parseTransaction(sent.raw);
      if (before.type !== 'eip1559' || before.nonce === undefined) {
        throw new ServiceError('INTERNAL_ERROR', 'Only EIP-1559 transactions are replaced', { details: { chain: sent.chain, kind: sent.kind } });
      }
      const now = await call(sent.chain, (x) => x.client.estimateFeesPerGas());
      const maxPriorityFeePerGas = maxOf(bumped(before.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
      const maxFeePerGas = maxOf(bumped(before.maxFeePerGas), now.maxFeePerGas, maxPriorityFeePerGas);
      const raw = await account.signTransaction({
        chainId: c.chain.id,
        type: 'eip1559',
        to: before.to,
        data: before.data,
        value: before.value,
        nonce: before.nonce,
        gas: before.gas,
        maxFeePerGas,
        maxPriorityFeePerGas,
      });
      const signed: SignedTx = { chain: sent.chain, kind: sent.kind, txHash: keccak256(raw), from: account.address, nonce: before.nonce, raw };
      await onSigned(signed);
      try {
        await broadcast(sent.chain, raw);
      } catch (e) {
        // The nonce went to the replaced bytes (mined meanwhile) or the node wants a higher bump:
        // either way the follower keeps watching every hash of this nonce.
        if (!nonceTaken(e)) throw e;
      }
      return signed;
    },

    async messageReceived(chain, message) {
      // CCTP v2 layout: the nonce (32 bytes, unique across source domains) at bytes 12..44; the transmitter keys usedNonces by it alone.
      const nonce = slice(message, 12, 44);
      const transmitter = clientOf(chain).deployment.messageTransmitter;
      const used = await call(chain, (c) => c.client.readContract({ address: transmitter, abi: messageTransmitterV2Abi, functionName: 'usedNonces', args: [nonce] }));
      if (used === 0n) return null;
      const logs = await call(chain, async (c) => {
        const latest = await c.client.getBlockNumber();
        const fromBlock = latest > RECEIVE_LOOKBACK_BLOCKS ? latest - RECEIVE_LOOKBACK_BLOCKS : 0n;
        return c.client.getContractEvents({ address: transmitter, abi: messageTransmitterV2Abi, eventName: 'MessageReceived', args: { nonce }, fromBlock });
      });
      const received = logs[0];
      if (received === undefined) {
        throw new ServiceError('INTERNAL_ERROR', `CCTP message nonce ${nonce} is used on ${chain} but its MessageReceived is older than ${RECEIVE_LOOKBACK_BLOCKS} blocks`, { details: { chain } });
      }
      return received.transactionHash;
    },

    async attest(chain, burnTxHash) {
      const ref = { sourceDomain: CHAINS[chain].cctpDomain, txHash: burnTxHash };
      // The sandbox fault: the attestation service does not answer this time, an ordinary transient error (the mint is retried).
      if (faults.take(chain, 'attestation-error')) throw attestationUnavailable(ref, new Error(`injected attestation-error: no attestation for ${burnTxHash}`));
      const { message, attestation } = await attestations.fetchAttestation(ref);
      return { message, attestation };
    },

    async gasQuote(chain) {
      const [gasPriceWei, usd] = await Promise.all([call(chain, (c) => c.client.getGasPrice()), ethUsd(chain)]);
      return { chain, gasPriceWei, ethUsd: usd };
    },

    async estimateGas(from, tx, assume): Promise<GasEstimate> {
      const typical: GasEstimate = { gas: TYPICAL_GAS[tx.kind], method: 'typical' };
      // a mint carries the attestation of a burn that has not happened yet
      if (tx.kind === 'mint') return typical;
      const { to, data } = encodeTx(clientOf(tx.chain).deployment, tx, from);
      if (assume !== undefined) {
        const gas = await simulateGas(tx.chain, from, to, data, assume, TYPICAL_GAS[tx.kind]);
        return gas === null ? typical : { gas, method: 'simulated' };
      }
      return call(tx.chain, (c) =>
        c.client.estimateGas({ account: from, to, data }).then(
          (gas): GasEstimate => ({ gas, method: 'estimated' }),
          (e: unknown) => {
            if (isTransportError(e)) throw e;
            return typical;
          },
        ),
      );
    },

    async close() {
      prices.clear();
      feeTables.clear();
    },
  };
  return port;
}
