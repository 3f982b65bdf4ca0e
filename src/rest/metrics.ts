import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one service instance (own registry: no global state). */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Paid reads by outcome: settled, settlement_failed (served, payment not collected). */
  paidReads: Counter<'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const paidReads = new Counter({
    name: 'x402_paid_reads_total',
    help: 'Paid (x402) reads served, by settlement outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return { registry, httpDuration, paidReads };
}
