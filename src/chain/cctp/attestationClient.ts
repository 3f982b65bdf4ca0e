import { isHash, isHex, type Hex } from 'viem';
import { createSystemClock, type Clock } from '../../domain/clock';
import { decodeBurnMessageV2, decodeMessageV2, isBurnMessageBodyV2 } from './messageV2';
import { attestationInvalid, attestationTimeout, attestationUnavailable, type AttestationRef } from '../../domain/errors/attestation';

/** Circle's attestation service (Iris) for the test networks. */
export const IRIS_SANDBOX_URL = 'https://iris-api-sandbox.circle.com';

export interface AttestationClientOptions {
  /** Default: Circle's testnet service; the sandbox passes its own Iris-compatible server's URL. */
  baseUrl?: string;
  /** Give up one HTTP request after this long (default 5 s). */
  requestTimeoutMs?: number;
  /** Polling back-off: the first wait, doubled after each answer that is not final, up to `maxMs` (default 250 ms → 5 s). */
  poll?: { initialMs: number; maxMs: number };
  /** How long fetchAttestation waits in all before a TIMEOUT the engine retries (default 5 min). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Time and the waits between polls (default the system clock; a simulated one in tests). */
  clock?: Clock;
}

/** A complete attestation: mint with `message` (the service's, nonce filled), not the bytes of the MessageSent log. */
export interface Attestation {
  message: Hex;
  attestation: Hex;
  nonce: Hex;
  finalityThresholdExecuted: number;
  /** Burns only: what the mint keeps back as the fee. */
  feeExecuted: bigint | null;
  /** The domain the message is minted on. */
  destinationDomain: number;
  /** Burns only: the destination block from which the mint reverts "Message expired and must be re-signed"; 0 = never. */
  expirationBlock: bigint;
}

/** One fee tier of a route: the minimum fee, in basis points, of transfers attested at `finalityThreshold`. */
export interface FeeTier {
  finalityThreshold: number;
  minimumFeeBps: number;
}

export interface FetchAttestationParameters {
  sourceDomain: number;
  txHash: Hex;
  signal?: AbortSignal;
  /** After a re-attestation: the old attestation, answered still until the service has signed again (then waited out like a pending one). */
  replacing?: Hex;
}

export interface AttestationClient {
  /**
   * Polls `GET /v2/messages/{sourceDomain}?transactionHash=` until the burn's
   * first message is `complete`. Not found yet and `pending_confirmations`
   * are waited out with back-off; so are network errors, 429 and 5xx. Past
   * `timeoutMs` it throws TIMEOUT (still pending) or NETWORK_ERROR (service
   * unreachable), both transient; a 4xx other than 404/429 or an answer not
   * in Circle's shape throws BRIDGE_FAILED. An aborted `signal` rejects with
   * its reason.
   */
  fetchAttestation(params: FetchAttestationParameters): Promise<Attestation>;
  /** `GET /v2/burn/USDC/fees/{source}/{destination}`: the route's fee tiers. */
  fetchFees(sourceDomain: number, destinationDomain: number, options?: { signal?: AbortSignal }): Promise<FeeTier[]>;
  /**
   * `POST /v2/reattest/{nonce}`: asks the service to sign the message again,
   * e.g. once its `expirationBlock` has passed. Fetch it again afterwards
   * (`fetchAttestation` with `replacing`). Network errors, 429 and 5xx throw
   * NETWORK_ERROR (transient); another refusal throws BRIDGE_FAILED.
   */
  reattest(ref: { sourceDomain: number; txHash: Hex; nonce: Hex }, options?: { signal?: AbortSignal }): Promise<void>;
}

type Poll = { kind: 'done'; attestation: Attestation } | { kind: 'wait'; status: string } | { kind: 'transient'; cause: unknown };

/** A client of Circle's attestation service, or of an Iris-compatible one at `baseUrl`. */
export function createAttestationClient(options: AttestationClientOptions = {}): AttestationClient {
  const baseUrl = (options.baseUrl ?? IRIS_SANDBOX_URL).replace(/\/+$/, '');
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000;
  const poll = options.poll ?? { initialMs: 250, maxMs: 5000 };
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? createSystemClock();
  const now = () => clock.now().getTime();

  const request = (method: 'GET' | 'POST', path: string, signal?: AbortSignal): Promise<Response> => {
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    return doFetch(`${baseUrl}${path}`, {
      method,
      headers: { accept: 'application/json' },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  };
  const get = (path: string, signal?: AbortSignal): Promise<Response> => request('GET', path, signal);

  const pollOnce = async (ref: AttestationRef, signal?: AbortSignal, replacing?: Hex): Promise<Poll> => {
    let res: Response;
    let body: unknown;
    try {
      res = await get(`/v2/messages/${ref.sourceDomain}?transactionHash=${ref.txHash}`, signal);
      body = await res.json().catch(() => undefined);
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      return { kind: 'transient', cause: e };
    }
    if (res.status === 404) return { kind: 'wait', status: 'not_found' };
    if (res.status === 429 || res.status >= 500) return { kind: 'transient', cause: new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`) };
    if (!res.ok) throw attestationInvalid(ref, `HTTP ${res.status}: ${JSON.stringify(body)}`);
    const first = firstMessage(body);
    if (first === null) throw attestationInvalid(ref, `answer not in Circle's shape: ${JSON.stringify(body).slice(0, 200)}`);
    if (first.status !== 'complete') return { kind: 'wait', status: first.status };
    if (replacing !== undefined && first.attestation === replacing) return { kind: 'wait', status: 'reattesting' };
    return { kind: 'done', attestation: toAttestation(ref, first) };
  };

  return {
    async fetchAttestation({ sourceDomain, txHash, signal, replacing }) {
      const ref: AttestationRef = { sourceDomain, txHash };
      const deadline = now() + timeoutMs;
      let delay = poll.initialMs;
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const result = await pollOnce(ref, signal, replacing);
        if (result.kind === 'done') return result.attestation;
        if (now() + delay > deadline) {
          throw result.kind === 'transient' ? attestationUnavailable(ref, result.cause) : attestationTimeout(ref, result.status);
        }
        await sleep(clock, delay, signal);
        delay = Math.min(delay * 2, poll.maxMs);
      }
    },

    async reattest({ sourceDomain, txHash, nonce }, { signal } = {}) {
      const ref: AttestationRef = { sourceDomain, txHash };
      if (!isHash(nonce)) throw attestationInvalid(ref, `not a v2 nonce: ${nonce}`);
      let res: Response;
      let body: unknown;
      try {
        res = await request('POST', `/v2/reattest/${nonce}`, signal);
        body = await res.json().catch(() => undefined);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        throw attestationUnavailable(ref, e);
      }
      if (res.status === 429 || res.status >= 500) throw attestationUnavailable(ref, new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`));
      if (!res.ok) throw attestationInvalid(ref, `re-attestation of ${nonce} refused: HTTP ${res.status}: ${JSON.stringify(body)}`);
    },

    async fetchFees(sourceDomain, destinationDomain, { signal } = {}) {
      const ref = { sourceDomain, txHash: '' };
      let res: Response;
      let body: unknown;
      try {
        res = await get(`/v2/burn/USDC/fees/${sourceDomain}/${destinationDomain}`, signal);
        body = await res.json().catch(() => undefined);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        throw attestationUnavailable(ref, e);
      }
      if (res.status === 429 || res.status >= 500) throw attestationUnavailable(ref, new Error(`HTTP ${res.status}`));
      if (!res.ok) throw attestationInvalid({ sourceDomain }, `fees ${sourceDomain}→${destinationDomain}: HTTP ${res.status}: ${JSON.stringify(body)}`);
      if (!Array.isArray(body)) throw attestationInvalid({ sourceDomain }, 'fee answer is not an array');
      return body.map((tier: unknown) => {
        const t = tier as { finalityThreshold?: unknown; minimumFee?: unknown };
        const bps = typeof t.minimumFee === 'string' ? Number.parseFloat(t.minimumFee) : t.minimumFee;
        if (typeof t.finalityThreshold !== 'number' || typeof bps !== 'number' || !(bps >= 0)) {
          throw attestationInvalid({ sourceDomain }, `fee tier not in Circle's shape: ${JSON.stringify(tier)}`);
        }
        return { finalityThreshold: t.finalityThreshold, minimumFeeBps: bps };
      });
    },
  };
}

interface RawMessage {
  message: unknown;
  eventNonce: unknown;
  attestation: unknown;
  status: string;
  decodedMessage?: {
    finalityThresholdExecuted?: unknown;
    destinationDomain?: unknown;
    decodedMessageBody?: { feeExecuted?: unknown; expirationBlock?: unknown } | null;
  } | null;
}

/** The first (lowest log index) message of a `{messages: [...]}` answer, or null when the shape is not Circle's. */
function firstMessage(body: unknown): RawMessage | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { messages?: unknown }).messages)) return null;
  const first = (body as { messages: unknown[] }).messages[0] as Partial<RawMessage> | undefined;
  if (typeof first !== 'object' || first === null || typeof first.status !== 'string') return null;
  return first as RawMessage;
}

function toAttestation(ref: AttestationRef, m: RawMessage): Attestation {
  const { message, attestation, eventNonce } = m;
  if (!isHex(message) || !isHex(attestation) || !isHex(eventNonce)) throw attestationInvalid(ref, 'complete message without hex message, attestation or nonce');
  const executed = Number(m.decodedMessage?.finalityThresholdExecuted);
  const fee = m.decodedMessage?.decodedMessageBody?.feeExecuted;
  // The signed bytes are the truth (a decoded copy may lag or be absent): the destination and the expiration are read from them.
  let fields: { destinationDomain: number; expirationBlock: bigint };
  try {
    const decoded = decodeMessageV2(message);
    const body = decoded.messageBody;
    fields = { destinationDomain: decoded.destinationDomain, expirationBlock: isBurnMessageBodyV2(body) ? decodeBurnMessageV2(body).expirationBlock : 0n };
  } catch (e) {
    throw attestationInvalid(ref, `complete message is not a CCTP v2 message (${e instanceof Error ? e.message : String(e)})`);
  }
  return {
    message,
    attestation,
    nonce: eventNonce,
    finalityThresholdExecuted: Number.isInteger(executed) ? executed : 0,
    feeExecuted: typeof fee === 'string' && /^\d+$/.test(fee) ? BigInt(fee) : null,
    ...fields,
  };
}

/** Waits `ms` on `clock`; rejects with the signal's reason when it aborts. */
function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
