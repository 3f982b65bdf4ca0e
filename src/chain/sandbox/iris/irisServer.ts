import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPublicClient,
  decodeEventLog,
  encodePacked,
  http,
  isAddressEqual,
  isHash,
  keccak256,
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainName } from '../../../domain/chains';
import { createSystemClock, type Clock } from '../../../domain/clock';
import { FINALITY_FAST, FINALITY_STANDARD, decodeBurnMessageV2, decodeMessageV2, fillMessageV2, isBurnMessageBodyV2 } from '../../cctp/messageV2';
import { cctpFee } from '../../../domain/cctpFee';
import { messageTransmitterV2Abi } from '../abis';
import { createDeployer } from '../deployer';
import { viemChainFor } from '../viemChains';
import { irisMessage, type IrisMessage } from './irisJson';
import type { PerFinality } from '../timing';

/** A chain whose burns the service attests (and whose transmitter trusts its attester). */
export interface IrisChain {
  chain: ChainName;
  domain: number;
  rpcUrl: string;
  messageTransmitter: Address;
}

export type { PerFinality } from '../timing';

export interface IrisServerOptions {
  chains: readonly IrisChain[];
  /** Signs keccak256(message) of every attested message. */
  attesterKey: Hex;
  /**
   * When given, the service enables its attester on every chain's
   * MessageTransmitterV2 through this key (the transmitters' attester
   * manager) before it serves; already enabled is fine.
   */
  attesterManagerKey?: Hex;
  /** How long a burn stays `pending_confirmations` after the service first sees it (default fast 20 ms, standard 100 ms). */
  delaysMs?: Partial<PerFinality<number>>;
  /** Per source chain, instead of `delaysMs` (the test networks' pace: src/chain/sandbox/timing.ts). */
  delaysBySourceMs?: Partial<Record<ChainName, PerFinality<number>>>;
  /** Minimum fee in basis points (fractions allowed, as Circle's route answers them; default fast 1, standard 0). */
  feesBps?: Partial<PerFinality<number>>;
  /** Time the delays are measured in (default the system clock; a simulated one in tests). */
  clock?: Clock;
  /**
   * Blocks of the destination chain an attestation stays valid for: the
   * signed message's `expirationBlock` is the destination's block number at
   * signing plus this (default 0: never expires, `expirationBlock` 0).
   */
  expirationBlocks?: number;
}

export interface IrisServer {
  /** Base URL, e.g. http://127.0.0.1:51234 (the attestation client's base URL). */
  url: string;
  attester: Address;
  fees(): PerFinality<number>;
  /** Changes the fees of burns seen from now on (a burn keeps the fee of when it was first seen). */
  setFees(fees: Partial<PerFinality<number>>): void;
  /** While on, every route answers 503, as an attestation service outage would. */
  setOutage(on: boolean): void;
  /** Changes the validity window of attestations signed from now on (0: never expire); re-attestations get at least REATTESTED_MIN_BLOCKS. */
  setExpirationBlocks(blocks: number): void;
  /** While on, `POST /v2/reattest/{nonce}` answers 400, as Circle does for a message it will not re-attest. */
  setReattestRefused(on: boolean): void;
  /** How many times `POST /v2/reattest/{nonce}` re-signed a message. */
  reattested(): number;
  close(): Promise<void>;
}

const DEFAULT_DELAYS_MS: PerFinality<number> = { fast: 20, standard: 100 };
const DEFAULT_FEES_BPS: PerFinality<number> = { fast: 1, standard: 0 };
/** A re-attested message is valid for at least this many destination blocks, however short the first window was. */
export const REATTESTED_MIN_BLOCKS = 50;

/** One message the service saw in a burn transaction, with what it decided when it first saw it. */
interface Seen {
  sent: Hex;
  nonce: Hex;
  level: keyof PerFinality<number>;
  feeExecuted: bigint;
  delayReason: string | null;
  readyAt: number;
  /** The source domain of the burn (re-attestation finds the message by its nonce alone). */
  domain: number;
  /** Set once signed: the filled message and its attestation. */
  signed?: { message: Hex; attestation: Hex };
}

/**
 * An Iris-compatible attestation service for the sandbox devnets: Circle's
 * routes and JSON shapes, without authentication, on 127.0.0.1 (port 0). It
 * reads burns from the source devnet's receipts, fills the nonce, the
 * finality executed and the fee into each message and signs
 * keccak256(message) with its attester key, after a delay per finality level.
 */
export async function startIrisServer(options: IrisServerOptions): Promise<IrisServer> {
  const attester = privateKeyToAccount(options.attesterKey);
  const delays = { ...DEFAULT_DELAYS_MS, ...options.delaysMs };
  if (!(delays.fast < delays.standard)) throw new Error('startIrisServer: the fast delay must be shorter than the standard one');
  for (const [chain, d] of Object.entries(options.delaysBySourceMs ?? {})) {
    if (!(d.fast < d.standard)) throw new Error(`startIrisServer: the fast delay from ${chain} must be shorter than the standard one`);
  }
  const delaysFrom = (chain: ChainName): PerFinality<number> => options.delaysBySourceMs?.[chain] ?? delays;
  let fees = { ...DEFAULT_FEES_BPS, ...options.feesBps };
  const clock = options.clock ?? createSystemClock();
  const now = () => clock.now().getTime();
  let outage = false;
  let expirationBlocks = checkedBlocks(options.expirationBlocks ?? 0);
  let reattestations = 0;
  let reattestRefused = false;

  const chains = new Map<number, { config: IrisChain; client: PublicClient<HttpTransport, Chain> }>();
  for (const c of options.chains) {
    if (chains.has(c.domain)) throw new Error(`startIrisServer: two chains with domain ${c.domain}`);
    // One retry: a client polling the service retries anyway, and an unreachable chain should answer 503 soon.
    const client = createPublicClient({ chain: viemChainFor(c.chain, c.rpcUrl), transport: http(c.rpcUrl, { retryCount: 1 }) });
    chains.set(c.domain, { config: c, client });
  }
  if (options.attesterManagerKey) {
    for (const c of options.chains) await enableAttester(c, options.attesterManagerKey, attester.address);
  }

  /** Burns seen, by `${domain}:${txHash}`; the promise keeps two concurrent first looks from deciding twice. */
  const seen = new Map<string, Promise<Seen[] | null>>();

  const look = async (domain: number, txHash: Hex): Promise<Seen[] | null> => {
    const { config, client } = chains.get(domain)!;
    const receipt = await client.getTransactionReceipt({ hash: txHash }).catch((e: unknown) => {
      if (e instanceof Error && e.name === 'TransactionReceiptNotFoundError') return null;
      throw e;
    });
    if (receipt === null) return null;
    const at = now();
    const found: Seen[] = [];
    for (const log of receipt.logs) {
      if (!isAddressEqual(log.address, config.messageTransmitter)) continue;
      let sent: Hex;
      try {
        const ev = decodeEventLog({ abi: messageTransmitterV2Abi, data: log.data, topics: log.topics });
        if (ev.eventName !== 'MessageSent') continue;
        sent = ev.args.message;
      } catch {
        continue; // another event of the transmitter
      }
      const m = decodeMessageV2(sent);
      // Deterministic and unique across source domains: the destination keys usedNonces by the nonce alone.
      const nonce = keccak256(encodePacked(['uint32', 'bytes32', 'uint32'], [domain, txHash, log.logIndex]));
      found.push({ sent, nonce, domain, ...decide(m.minFinalityThreshold, burnAmounts(sent), fees, delaysFrom(config.chain), at) });
    }
    return found.length > 0 ? found : null;
  };

  /** The destination's block number plus `blocks` (0 when `blocks` is 0: never expires). */
  const expirationFor = async (s: Seen, blocks: number): Promise<bigint> => {
    if (blocks === 0) return 0n;
    const destination = chains.get(decodeMessageV2(s.sent).destinationDomain);
    if (destination === undefined) return 0n;
    return (await destination.client.getBlockNumber({ cacheTime: 0 })) + BigInt(blocks);
  };

  const sign = async (s: Seen, expirationBlock: bigint): Promise<void> => {
    const message = fillMessageV2(s.sent, {
      nonce: s.nonce,
      finalityThresholdExecuted: s.level === 'fast' ? FINALITY_FAST : FINALITY_STANDARD,
      feeExecuted: s.feeExecuted,
      expirationBlock,
    });
    s.signed = { message, attestation: await attester.sign({ hash: keccak256(message) }) };
  };

  const attest = async (s: Seen): Promise<void> => {
    if (s.signed) return;
    await sign(s, await expirationFor(s, expirationBlocks));
  };

  /** Messages by nonce, for re-attestation (Circle's route names the nonce alone). */
  const byNonce = async (nonce: string): Promise<Seen | undefined> => {
    for (const entry of seen.values()) {
      const found = await entry.catch(() => null);
      const s = found?.find((x) => x.nonce.toLowerCase() === nonce.toLowerCase());
      if (s) return s;
    }
    return undefined;
  };

  const messages = async (domain: number, txHash: Hex): Promise<IrisMessage[] | null> => {
    const key = `${domain}:${txHash.toLowerCase()}`;
    let entry = seen.get(key);
    if (!entry) {
      entry = look(domain, txHash);
      seen.set(key, entry);
      // Not mined (or failed to read) yet: look again next time.
      entry.then(
        (r) => r === null && seen.delete(key),
        () => seen.delete(key),
      );
    }
    const found = await entry;
    if (found === null) return null;
    const at = now();
    const out: IrisMessage[] = [];
    for (const s of found) {
      if (at >= s.readyAt) await attest(s);
      out.push(irisMessage(s));
    }
    return out;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, { error: e instanceof Error ? e.message : String(e) }));
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (outage) return send(res, 503, { error: 'Service unavailable' });
    const url = new URL(req.url ?? '/', 'http://iris');
    let match = /^\/v2\/reattest\/([^/]+)$/.exec(url.pathname);
    if (match) {
      if (req.method !== 'POST') return send(res, 405, { error: 'Method not allowed' });
      const nonce = decodeURIComponent(match[1]!);
      const s = isHash(nonce) ? await byNonce(nonce) : undefined;
      if (s === undefined) return send(res, 404, { error: 'Message not found for nonce' });
      if (!s.signed) return send(res, 400, { error: 'Message is not attested yet' });
      if (reattestRefused) return send(res, 400, { error: 'Re-attestation is not allowed for this message' });
      // As Circle does: the same message signed again with a later expirationBlock (a fresh window on the destination).
      try {
        await sign(s, await expirationFor(s, expirationBlocks === 0 ? 0 : Math.max(expirationBlocks, REATTESTED_MIN_BLOCKS)));
      } catch (e) {
        return send(res, 503, { error: `Destination chain unreachable: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` });
      }
      reattestations++;
      return send(res, 200, { message: 'Re-attestation successfully requested for nonce.', nonce: s.nonce });
    }
    if (req.method !== 'GET') return send(res, 405, { error: 'Method not allowed' });
    match = /^\/v2\/messages\/(\d+)$/.exec(url.pathname);
    if (match) {
      const domain = Number(match[1]);
      if (!chains.has(domain)) return send(res, 400, { error: `Invalid source domain: ${domain}` });
      const txHash = url.searchParams.get('transactionHash');
      if (!txHash || !isHash(txHash)) return send(res, 400, { error: 'Invalid transactionHash' });
      let found: IrisMessage[] | null;
      try {
        found = await messages(domain, txHash);
      } catch (e) {
        // The source devnet did not answer: as transient for a client as the service being down.
        return send(res, 503, { error: `Source chain unreachable: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` });
      }
      if (found === null) return send(res, 404, { error: 'Message hash not found' });
      return send(res, 200, { messages: found });
    }
    match = /^\/v2\/burn\/USDC\/fees\/(\d+)\/(\d+)$/.exec(url.pathname);
    if (match) {
      const [source, destination] = [Number(match[1]), Number(match[2])];
      if (!chains.has(source) || !chains.has(destination) || source === destination) {
        return send(res, 400, { error: `Invalid route: ${source} to ${destination}` });
      }
      return send(res, 200, [
        { finalityThreshold: FINALITY_FAST, minimumFee: fees.fast },
        { finalityThreshold: FINALITY_STANDARD, minimumFee: fees.standard },
      ]);
    }
    return send(res, 404, { error: 'Not found' });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attester: attester.address,
    fees: () => ({ ...fees }),
    setFees(next) {
      const merged = { ...fees, ...next };
      if (merged.fast < 0 || merged.standard < 0) throw new Error('Iris fees must not be negative');
      fees = merged;
    },
    setOutage(on) {
      outage = on;
    },
    setExpirationBlocks(blocks) {
      expirationBlocks = checkedBlocks(blocks);
    },
    setReattestRefused(on) {
      reattestRefused = on;
    },
    reattested: () => reattestations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/** The fast/standard decision for one burn, made once, when the service first sees it. */
function decide(
  minFinalityThreshold: number,
  burn: { amount: bigint; maxFee: bigint } | null,
  fees: PerFinality<number>,
  delays: PerFinality<number>,
  seenAt: number,
): Pick<Seen, 'level' | 'feeExecuted' | 'delayReason' | 'readyAt'> {
  const standard = { level: 'standard' as const, feeExecuted: burn ? feeOf(burn, fees.standard) : 0n, readyAt: seenAt + delays.standard };
  if (minFinalityThreshold > FINALITY_FAST) return { ...standard, delayReason: null };
  const fast = burn ? cctpFee(burn.amount, fees.fast) : 0n;
  // As Circle does, a fast burn whose maxFee does not cover the fast fee waits for finality instead.
  if (burn && fast > burn.maxFee) return { ...standard, delayReason: 'insufficient_fee' };
  return { level: 'fast', feeExecuted: fast, delayReason: null, readyAt: seenAt + delays.fast };
}

/** The fee at `bps`, never above what the burn allows. */
function feeOf(burn: { amount: bigint; maxFee: bigint }, bps: number): bigint {
  const fee = cctpFee(burn.amount, bps);
  return fee > burn.maxFee ? burn.maxFee : fee;
}

function burnAmounts(sent: Hex): { amount: bigint; maxFee: bigint } | null {
  const body = decodeMessageV2(sent).messageBody;
  return isBurnMessageBodyV2(body) ? decodeBurnMessageV2(body) : null;
}

async function enableAttester(c: IrisChain, managerKey: Hex, attester: Address): Promise<void> {
  const d = createDeployer(c.chain, c.rpcUrl, managerKey);
  const transmitter = { address: c.messageTransmitter, abi: messageTransmitterV2Abi } as const;
  if (await d.public.readContract({ ...transmitter, functionName: 'isEnabledAttester', args: [attester] })) return;
  await d.confirm(d.wallet.writeContract({ ...transmitter, functionName: 'enableAttester', args: [attester] }));
}

function checkedBlocks(blocks: number): number {
  if (!Number.isSafeInteger(blocks) || blocks < 0) throw new Error('Iris expirationBlocks must be a whole number of blocks, at least 0');
  return blocks;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
