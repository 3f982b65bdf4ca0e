import { cctpFee } from '../../../src/domain/cctpFee';
import { ADMIN_TOKEN, type HttpAnswer, type Json, type TestServer } from '../../helpers/server';

/**
 * Helpers for the intent tests over real HTTP: wallets funded with the sandbox
 * admin mint, POST /v1/intents, polling GET /v1/intents/:id until final (with
 * the Retry-After rule checked on every answer), balance reads in smallest units.
 */

/** How long an intent may take to reach a final state before the test fails. */
export const FINAL_WITHIN_MS = 20_000;
const POLL_MS = 50;

/** 6-decimal USDC amount ("7.996") in smallest units. */
export function usdc(amount: string): bigint {
  const [whole = '0', frac = ''] = amount.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6) || '0');
}

/** CCTP fee of the test sandbox on `amount` (smallest units) at `bps`: the protocol's rule, as the planner and the attestation service apply it. */
export const feeOf = cctpFee;

/** Smallest units as the plain decimal string the service uses ("7.996", "10"). */
export function decimal(units: bigint): string {
  const whole = units / 1_000_000n;
  const frac = (units % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}

export interface Funded {
  id: string;
  address: string;
}

export interface IntentHttp {
  /** A fresh wallet of the key's account. */
  newWallet(prefix: string): Promise<Funded>;
  /** Mints sandbox USDC to `address` on `chain` (admin API, mined before it answers). */
  mint(chain: string, address: string, amount: string): Promise<void>;
  /** A fresh wallet holding the given USDC per chain. */
  fundedWallet(prefix: string, usdcByChain: Record<string, string>): Promise<Funded>;
  post(body: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  /** POST /v1/intents that must be accepted: 201, `pending` or `planning`, Retry-After: 5. */
  submit(body: Record<string, unknown>): Promise<Json>;
  /** Polls GET /v1/intents/:id until completed, failed or cancelled (bounded); every answer obeys the Retry-After rule. */
  waitFinal(id: string): Promise<Json>;
  /** submit + waitFinal. */
  run(body: Record<string, unknown>): Promise<Json>;
  balances(walletId: string): Promise<Json>;
}

/** Binds the helpers to a server and an API key. */
export function intentHttp(srv: TestServer, key: string): IntentHttp {
  let seq = 0;
  const newWallet: IntentHttp['newWallet'] = async (prefix) => {
    const userId = `${prefix}-${Date.now().toString(36)}-${(seq++).toString(36)}`;
    const r = await srv.rest('POST', '/v1/wallets', { key, body: { userId } });
    if (r.status !== 201) throw new Error(`POST /v1/wallets: ${r.status} ${r.text}`);
    return { id: r.body.id, address: r.body.address };
  };
  const mint: IntentHttp['mint'] = async (chain, address, amount) => {
    const r = await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain, asset: 'USDC', address, amount } });
    if (r.status !== 200) throw new Error(`mint ${amount} on ${chain}: ${r.status} ${r.text}`);
  };
  const post: IntentHttp['post'] = (body, headers) => srv.rest('POST', '/v1/intents', { key, body, headers });

  const submit: IntentHttp['submit'] = async (body) => {
    const r = await post(body);
    if (r.status !== 201) throw new Error(`POST /v1/intents: expected 201, got ${r.status} ${r.text}`);
    expect(r.body.id).toMatch(/^intent_/);
    expect(['pending', 'planning']).toContain(r.body.status);
    expect(r.headers.get('retry-after')).toBe('5');
    return r.body;
  };

  const waitFinal: IntentHttp['waitFinal'] = async (id) => {
    const deadline = Date.now() + FINAL_WITHIN_MS;
    let last: HttpAnswer | undefined;
    let previous: Json;
    while (Date.now() < deadline) {
      last = await srv.rest('GET', `/v1/intents/${id}`, { key });
      if (last.status !== 200) throw new Error(`GET /v1/intents/${id}: ${last.status} ${last.text}`);
      const final = last.body.status === 'completed' || last.body.status === 'failed' || last.body.status === 'cancelled';
      // docs/decisions.md polling: Retry-After: 5 while not final, absent once final
      expect({ status: last.body.status, retryAfter: last.headers.get('retry-after') }).toEqual({
        status: last.body.status,
        retryAfter: final ? null : '5',
      });
      expectConsistentSnapshot(last.body, previous);
      previous = last.body;
      if (final) return last.body;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`intent ${id} not final after ${FINAL_WITHIN_MS} ms: ${last?.text}`);
  };

  const balances: IntentHttp['balances'] = async (walletId) => {
    const r = await srv.rest('GET', `/v1/balances/${walletId}`, { key });
    if (r.status !== 200) throw new Error(`GET /v1/balances/${walletId}: ${r.status} ${r.text}`);
    return r.body;
  };

  return {
    newWallet,
    mint,
    async fundedWallet(prefix, usdcByChain) {
      const w = await newWallet(prefix);
      for (const [chain, amount] of Object.entries(usdcByChain)) await mint(chain, w.address, amount);
      return w;
    },
    post,
    submit,
    waitFinal,
    run: async (body) => waitFinal((await submit(body)).id),
    balances,
  };
}

const STATUS_ORDER = ['pending', 'planning', 'executing', 'completed', 'failed', 'cancelled'];

/**
 * docs/architecture.md, "The intent engine" as seen by a poller: no plan before
 * `executing`, a plan and results from then on, status and progress never
 * going backwards between two answers.
 */
function expectConsistentSnapshot(intent: Json, previous: Json): void {
  const where = `${intent.id} ${intent.status}`;
  if (intent.status === 'pending' || intent.status === 'planning') {
    expect({ where, plan: intent.executionPlan, results: intent.results }).toEqual({ where, plan: null, results: undefined });
  }
  if (intent.status === 'executing') {
    expect({ where, plan: intent.executionPlan !== null, results: intent.results !== undefined }).toEqual({ where, plan: true, results: true });
    expect(intent.error).toBeUndefined();
  }
  if (previous === undefined) return;
  const rank = (s: string): number => Math.min(STATUS_ORDER.indexOf(s), 3);
  expect(rank(intent.status)).toBeGreaterThanOrEqual(rank(previous.status));
  expect(Date.parse(intent.updatedAt)).toBeGreaterThanOrEqual(Date.parse(previous.updatedAt));
  if (previous.results !== undefined && intent.results !== undefined) {
    expect(intent.results.completedSteps).toBeGreaterThanOrEqual(previous.results.completedSteps);
    expect(intent.results.transactions.length).toBeGreaterThanOrEqual(previous.results.transactions.length);
  }
}

/** USDC token balance (smallest units) of a balance report on `chain`; 0 when the chain lists none. */
export function usdcOn(report: Json, chain: string): bigint {
  const c = report.chains.find((x: Json) => x.chain === chain);
  if (c === undefined) throw new Error(`balance report has no ${chain}`);
  const t = c.tokens.find((x: Json) => x.asset === 'USDC');
  return t === undefined ? 0n : BigInt(t.balance);
}

/** USDC lending position (smallest units) on `chain` in `protocol`; 0 when there is none. */
export function positionOn(report: Json, chain: string, protocol: string): bigint {
  const c = report.chains.find((x: Json) => x.chain === chain);
  if (c === undefined) throw new Error(`balance report has no ${chain}`);
  const p = c.positions.find((x: Json) => x.asset === 'USDC' && x.protocol === protocol);
  return p === undefined ? 0n : BigInt(p.balance);
}

/** Every USDC position of the report, as "protocol@chain". */
export function positionsOf(report: Json): string[] {
  return report.chains.flatMap((c: Json) => c.positions.filter((p: Json) => p.asset === 'USDC').map((p: Json) => `${p.protocol}@${c.chain}`));
}

/** The transactions of an intent as "kind@chain". */
export const txKinds = (intent: Json): string[] => intent.results.transactions.map((t: Json) => `${t.kind}@${t.chain}`);

/**
 * The invariants of a completed intent (the API's "Intent"): every step completed,
 * completedSteps = steps, every transaction mined with gas in units and USD,
 * totals the sums, finalAmount = amount, completedAt set, no error.
 */
export function expectCompleted(intent: Json): void {
  expect(intent.status).toBe('completed');
  expect(intent.error).toBeUndefined();
  const steps = intent.executionPlan.steps;
  expect(steps.length).toBeGreaterThan(0);
  expect(steps.map((s: Json) => s.status)).toEqual(steps.map(() => 'completed'));
  expect(typeof intent.executionPlan.reasoning).toBe('string');
  steps.forEach((s: Json, i: number) => {
    // docs/decisions.md step records: index, txHash of its main transaction, times, its own gas
    expect(s.index).toBe(i);
    expect(s.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Date.parse(s.completedAt)).toBeGreaterThanOrEqual(Date.parse(s.startedAt));
    expect(intent.results.transactions.map((t: Json) => t.txHash)).toContain(s.txHash);
    expect(BigInt(s.gasUsed)).toBeGreaterThan(0n);
    expect(s.gasCostUsd).toBeGreaterThan(0);
  });
  const stepGas = steps.reduce((sum: bigint, s: Json) => sum + BigInt(s.gasUsed), 0n);
  expect(stepGas.toString()).toBe(intent.results.totalGasUsed);
  expect(intent.results.completedSteps).toBe(steps.length);
  expect(intent.results.failedStep).toBeUndefined();
  expectMinedTransactions(intent.results.transactions);
  expectTotals(intent.results);
  expect(intent.results.finalAmount).toBe(String(intent.amount));
  expect(Date.parse(intent.completedAt)).toBeGreaterThanOrEqual(Date.parse(intent.createdAt));
}

/** Each transaction carries a 32-byte hash, its chain, gas used (> a plain transfer) and a positive USD cost. */
export function expectMinedTransactions(transactions: Json[]): void {
  expect(transactions.length).toBeGreaterThan(0);
  for (const t of transactions) {
    expect(t.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia']).toContain(t.chain);
    expect(t.gasUsed).toMatch(/^\d+$/);
    expect(BigInt(t.gasUsed)).toBeGreaterThan(21_000n);
    expect(t.gasCostUsd).toBeGreaterThan(0);
    expect(t.raw).toBeUndefined();
  }
  expect(new Set(transactions.map((t) => t.txHash)).size).toBe(transactions.length);
}

/** totalGasUsed and totalGasCostUsd are the sums over the transactions. */
export function expectTotals(results: Json): void {
  const gas = results.transactions.reduce((s: bigint, t: Json) => s + BigInt(t.gasUsed ?? 0), 0n);
  const usd = results.transactions.reduce((s: number, t: Json) => s + (t.gasCostUsd ?? 0), 0);
  expect(results.totalGasUsed).toBe(gas.toString());
  expect(results.totalGasCostUsd).toBeCloseTo(usd, 5);
}

/** The APY /v1/yields reports for USDC on `chain` in `protocol`. */
export async function usdcApy(srv: TestServer, key: string, chain: string, protocol: string): Promise<number> {
  const r = await srv.rest('GET', `/v1/yields?asset=USDC&chain=${chain}`, { key });
  if (r.status !== 200) throw new Error(`GET /v1/yields: ${r.status} ${r.text}`);
  const rate = r.body.rates.find((x: Json) => x.protocol === protocol);
  if (rate === undefined) throw new Error(`no ${protocol} USDC rate on ${chain}`);
  return rate.apy;
}

/** The sandbox pools round shares by one smallest unit either way (as Aave and Compound do). */
export const ROUNDING = 1n;

/** A lending position of `amount` just supplied: within one unit below it and a little interest above it. */
export function expectPositionNear(actual: bigint, amount: bigint): void {
  expect(actual).toBeGreaterThanOrEqual(amount - ROUNDING);
  expect(actual).toBeLessThan(amount + usdc('0.01'));
}
