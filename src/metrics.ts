import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isFinal, type Intent } from './domain/intent';
import type { Operation } from './domain/plans';

/**
 * What the hooks are told, as the metrics read it. Declared here, not taken
 * from the chain adapter or the GraphQL transports: those report into these
 * shapes (theirs are assignable), and this file depends on no layer but the
 * domain (docs/architecture.md, Layers).
 */
export interface ObservedRpcCall {
  chain: string;
  method: string;
  seconds: number;
  /** How it failed; absent when the node answered. */
  error?: string;
}
export type StreamTransportLabel = 'websocket' | 'sse';
export interface ChainClockOffset {
  chain: string;
  offsetSeconds: number;
}

/**
 * Prometheus metrics of one service instance (own registry: no global state),
 * and the hooks the composition root hands the layers that report into them
 * (the engine, the chain adapter, the GraphQL transports, the use-cases never
 * import this file). docs/operations.md "Metrics" lists every name, type and label.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Paid reads by settlement outcome: settled (served), settlement_failed (refused 402, the read's answer not sent). */
  paidReads: Counter<'outcome'>;
  /** x402 payments: settled, settlement_failed, refused (with the refusal's reason). */
  payments: Counter<'outcome' | 'reason'>;
  intentTransitions: Counter<'action' | 'status'>;
  intentDuration: Histogram<'action' | 'outcome'>;
  rpcDuration: Histogram<'chain' | 'method'>;
  rpcErrors: Counter<'chain' | 'method' | 'kind'>;
  creditsCharged: Counter<'operation'>;
  nonceRetries: Counter<'chain'>;
  subscriptionsOpen: Gauge<'transport'>;
  keySignatures: Counter<'provider' | 'outcome'>;
  keySignDuration: Histogram<'provider'>;
  /** Key provider hook: each signature made (or refused, or failed at the token). */
  keySign(provider: string, seconds: number, ok: boolean): void;
  /** Engine hook: each status an intent enters (and, once final, how long it took). */
  intentTransition(intent: Intent): void;
  /** Chain adapter hook: each JSON-RPC request. */
  chainRpc(call: ObservedRpcCall): void;
  /** Chain adapter hook: a transaction re-signed because another sender used its nonce first (0 expected: shared signers take nonces from the store). */
  nonceRetry(chain: string): void;
  /** Use-case hook: credits an operation was charged. */
  creditsChargedFor(operation: Operation, credits: number): void;
  /** GraphQL transports' hook: subscription streams opening and ending. */
  streams: { opened(transport: StreamTransportLabel): void; closed(transport: StreamTransportLabel): void };
}

/** A hook never fails what it observes. */
const guarded =
  <A extends unknown[]>(fn: (...args: A) => void) =>
  (...args: A): void => {
    try {
      fn(...args);
    } catch {
      // a metric that could not be recorded is not the caller's failure
    }
  };

/** What the registry reads at scrape time. */
export interface MetricSources {
  /** Each chain's latest block time against the wall clock. */
  chainClocks?: () => Promise<ChainClockOffset[]>;
}

export function createMetrics(sources: MetricSources = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  if (sources.chainClocks) {
    const read = sources.chainClocks;
    new Gauge({
      name: 'chain_clock_offset_seconds',
      help: "Latest block timestamp minus the wall clock, by chain (positive: the chain's clock is ahead)",
      labelNames: ['chain'] as const,
      registers,
      async collect() {
        // a chain that does not answer leaves its last value; /readyz reports the outage
        const clocks = await read().catch(() => []);
        for (const c of clocks) this.set({ chain: c.chain }, c.offsetSeconds);
      },
    });
  }
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers,
  });
  const paidReads = new Counter({
    name: 'x402_paid_reads_total',
    help: 'Paid (x402) reads that reached settlement, by outcome (only settled ones are served)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const payments = new Counter({
    name: 'x402_payments_total',
    help: 'x402 payment proofs by outcome: settled, settlement_failed (read served, payment not collected), refused (402 PAYMENT_INVALID, with its reason)',
    labelNames: ['outcome', 'reason'] as const,
    registers,
  });
  const intentTransitions = new Counter({
    name: 'intent_transitions_total',
    help: 'Intents entering each status (pending when submitted, then planning, executing, completed, failed), by action',
    labelNames: ['action', 'status'] as const,
    registers,
  });
  const intentDuration = new Histogram({
    name: 'intent_duration_seconds',
    help: "Time from an intent's creation to its final state, by action and outcome (completed, failed)",
    labelNames: ['action', 'outcome'] as const,
    buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800, 3600],
    registers,
  });
  const rpcDuration = new Histogram({
    name: 'chain_rpc_duration_seconds',
    help: 'JSON-RPC requests of the chain adapter, by chain and method (failed ones too)',
    labelNames: ['chain', 'method'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const rpcErrors = new Counter({
    name: 'chain_rpc_errors_total',
    help: 'Failed JSON-RPC requests of the chain adapter, by chain, method and kind (timeout, network, revert, rpc)',
    labelNames: ['chain', 'method', 'kind'] as const,
    registers,
  });
  const nonceRetries = new Counter({
    name: 'chain_nonce_retries_total',
    help: 'Transactions re-signed because another sender used their nonce first, by chain',
    labelNames: ['chain'] as const,
    registers,
  });
  const creditsCharged = new Counter({
    name: 'credits_charged_total',
    help: 'Credits charged to API keys for successful operations (REST and GraphQL), by operation',
    labelNames: ['operation'] as const,
    registers,
  });
  const subscriptionsOpen = new Gauge({
    name: 'graphql_subscriptions_open',
    help: 'GraphQL subscription streams open on this instance, by transport (websocket, sse)',
    labelNames: ['transport'] as const,
    registers,
  });
  const keySignatures = new Counter({
    name: 'key_signatures_total',
    help: 'Signatures asked of the key provider, by provider (local, pkcs11) and outcome (signed, error: the token failed or the signature was refused)',
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const keySignDuration = new Histogram({
    name: 'key_sign_duration_seconds',
    help: 'Time one signature took in the key provider (a PKCS#11 token: the call, low-s and the recovery check), by provider',
    labelNames: ['provider'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  // The label sets known in advance start at 0, so a scrape shows them before the first event.
  for (const transport of ['websocket', 'sse'] as const) subscriptionsOpen.set({ transport }, 0);

  return {
    registry,
    httpDuration,
    paidReads,
    payments,
    intentTransitions,
    intentDuration,
    rpcDuration,
    rpcErrors,
    creditsCharged,
    nonceRetries,
    subscriptionsOpen,
    keySignatures,
    keySignDuration,
    keySign: guarded((provider: string, seconds: number, ok: boolean) => {
      keySignatures.inc({ provider, outcome: ok ? 'signed' : 'error' });
      keySignDuration.observe({ provider }, seconds);
    }),
    intentTransition: guarded((intent: Intent) => {
      intentTransitions.inc({ action: intent.action, status: intent.status });
      if (!isFinal(intent.status)) return;
      const seconds = (Date.parse(intent.completedAt ?? intent.updatedAt) - Date.parse(intent.createdAt)) / 1000;
      if (Number.isFinite(seconds) && seconds >= 0) intentDuration.observe({ action: intent.action, outcome: intent.status }, seconds);
    }),
    chainRpc: guarded((call: ObservedRpcCall) => {
      rpcDuration.observe({ chain: call.chain, method: call.method }, call.seconds);
      if (call.error) rpcErrors.inc({ chain: call.chain, method: call.method, kind: call.error });
    }),
    nonceRetry: guarded((chain: string) => nonceRetries.inc({ chain })),
    creditsChargedFor: guarded((operation: Operation, credits: number) => {
      if (credits > 0) creditsCharged.inc({ operation }, credits);
    }),
    streams: {
      opened: guarded((transport: StreamTransportLabel) => subscriptionsOpen.inc({ transport })),
      closed: guarded((transport: StreamTransportLabel) => subscriptionsOpen.dec({ transport })),
    },
  };
}
