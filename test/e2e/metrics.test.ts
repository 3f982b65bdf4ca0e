import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../helpers/server';
import { signProof } from '../helpers/x402Proof';
import { CREDIT_COST, type Operation } from '../../src/domain/plans';
import { PROTOCOLS_WITHOUT_PERMITS } from '../helpers/withoutPermits';

/**
 * GET /metrics after real work: a lend intent that completes, one that fails
 * (an injected deposit revert), REST and GraphQL operations, subscriptions
 * over graphql-ws and SSE, a paid read settled and a payment proof refused.
 * Injected faults and x402 time windows are global to a devnet, so this file
 * runs on its OWN sandbox; the registry is the server's own, so every
 * counter starts at zero and the figures below are exact.
 */

let srv: TestServer;
let key: string;
let accountId: string;
let walletId: string;
const clients: Client[] = [];

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`unparsable metrics line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const r = await fetch(`${srv.url}/metrics`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/plain');
  const text = await r.text();
  return { text, samples: parseMetrics(text) };
}

/** The value of the one sample named `name` whose labels include `labels` (undefined when there is none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);

const SUBSCRIPTION = 'subscription($id: ID!) { intentUpdated(id: $id) { id } }';

/** Credits the test's own requests were charged, by operation (what credits_charged_total must show). */
const charged: Partial<Record<Operation, number>> = {};
const charge = (op: Operation) => (charged[op] = (charged[op] ?? 0) + CREDIT_COST[op]);

async function lend(amount: number): Promise<Json> {
  const r = await srv.rest('POST', '/v1/intents', { key, body: { walletId, action: 'lend', amount, chain: 'base-sepolia' } });
  expect(r.status).toBe(201);
  charge('createIntent');
  for (let i = 0; i < 600; i++) {
    const got = await srv.rest('GET', `/v1/intents/${r.body.id}`, { key });
    expect(got.status).toBe(200);
    charge('getIntent');
    if (got.body.status === 'completed' || got.body.status === 'failed') return got.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`intent ${r.body.id} did not finish`);
}

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 100 && !done(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: '', SANDBOX_ACCOUNT_MODEL: 'plain' }, { protocols: PROTOCOLS_WITHOUT_PERMITS });
  const acct = await srv.admin.createAccount({ plan: 'enterprise' });
  key = acct.key;
  accountId = acct.accountId;
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'metrics-lender' } });
  expect(w.status).toBe(201);
  charge('createWallet');
  walletId = w.body.id;
  const m = await srv.rest('POST', '/admin/sandbox/mint', {
    key: ADMIN_TOKEN,
    body: { chain: 'base-sepolia', asset: 'USDC', address: w.body.address, amount: '20' },
  });
  expect(m.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await srv?.stop();
});

test('behavior: a completed and a failed lend show in intent_transitions_total, intent_duration_seconds and chain_rpc_*', async () => {
  const completed = await lend(5);
  expect(completed.status).toBe('completed');
  const fault = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', kind: 'deposit-revert', count: 1 } });
  expect(fault.status).toBe(201);
  const failed = await lend(5);
  expect(failed.status).toBe('failed');

  const { samples } = await scrape();
  // every status each intent entered, once per intent
  for (const [status, n] of Object.entries({ pending: 2, planning: 2, executing: 2, completed: 1, failed: 1 })) {
    expect({ status, n: value(samples, 'intent_transitions_total', { action: 'lend', status }) }).toEqual({ status, n });
  }
  // creation to final state: one observation per outcome, as long as the intent's own timestamps say
  const took = (i: Json) => (Date.parse(i.completedAt ?? i.updatedAt) - Date.parse(i.createdAt)) / 1000;
  for (const [outcome, intent] of [
    ['completed', completed],
    ['failed', failed],
  ] as const) {
    expect(value(samples, 'intent_duration_seconds_count', { action: 'lend', outcome })).toBe(1);
    expect(value(samples, 'intent_duration_seconds_sum', { action: 'lend', outcome })).toBeCloseTo(took(intent), 2);
    expect(value(samples, 'intent_duration_seconds_bucket', { action: 'lend', outcome, le: '+Inf' })).toBe(1);
  }

  // each transaction was one eth_sendRawTransaction on base-sepolia (approve, supply; approve, reverted supply, revoke),
  // plus the gas tank's top-up of the new wallet's native balance before its first one
  const sent = completed.results.transactions.length + failed.results.transactions.length;
  expect(sent).toBe(5);
  expect(value(samples, 'chain_rpc_duration_seconds_count', { chain: 'base-sepolia', method: 'eth_sendRawTransaction' })).toBe(sent + 1);
  expect(value(samples, 'chain_rpc_duration_seconds_sum', { chain: 'base-sepolia', method: 'eth_sendRawTransaction' })).toBeGreaterThan(0);
  expect(value(samples, 'chain_rpc_duration_seconds_count', { chain: 'base-sepolia', method: 'eth_call' })).toBeGreaterThan(0);
  expect(value(samples, 'chain_rpc_duration_seconds_count', { chain: 'arbitrum-sepolia', method: 'eth_call' })).toBeGreaterThan(0); // the faucet stock read at start
  // the sabotaged supply's gas estimate was refused by the node: a revert, not node trouble
  expect(value(samples, 'chain_rpc_errors_total', { chain: 'base-sepolia', method: 'eth_estimateGas', kind: 'revert' })).toBe(1);
  expect(sum(samples, 'chain_rpc_errors_total', { kind: 'network' })).toBe(0);
  expect(sum(samples, 'chain_rpc_errors_total', { kind: 'timeout' })).toBe(0);
}, 120_000);

test('behavior: graphql_subscriptions_open counts streams while they are open, over graphql-ws and SSE, and returns to 0', async () => {
  // An intent that never moves: its subscriptions stay open until their clients go away.
  const now = new Date().toISOString();
  await srv.service.deps.store.intents.insert({
    id: 'intent_metrics_probe',
    accountId,
    walletId,
    status: 'executing',
    action: 'lend',
    amount: '1',
    requestedAmount: '1',
    asset: 'USDC',
    executionPlan: { strategy: 'no-bridge', reasoning: 'probe', steps: [] },
    createdAt: now,
    updatedAt: now,
    version: 3,
  });
  const open = async () => {
    const { samples } = await scrape();
    return {
      websocket: value(samples, 'graphql_subscriptions_open', { transport: 'websocket' }),
      sse: value(samples, 'graphql_subscriptions_open', { transport: 'sse' }),
    };
  };
  expect(await open()).toEqual({ websocket: 0, sse: 0 });

  const client = createClient({
    url: `${srv.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  clients.push(client);
  const first = new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: SUBSCRIPTION, variables: { id: 'intent_metrics_probe' } },
      { next: () => resolve(), error: reject, complete: () => reject(new Error('completed early')) },
    );
  });
  await first;
  charge('watchIntent');

  const aborted = new AbortController();
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query: SUBSCRIPTION, variables: { id: 'intent_metrics_probe' } }),
    signal: aborted.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let seen = '';
  while (!seen.includes('"intent_metrics_probe"')) seen += new TextDecoder().decode((await reader.read()).value);
  charge('watchIntent');

  expect(await open()).toEqual({ websocket: 1, sse: 1 });
  await client.dispose();
  aborted.abort();
  await reader.cancel().catch(() => undefined);
  expect(await waitFor(open, (o) => o.websocket === 0 && o.sse === 0)).toEqual({ websocket: 0, sse: 0 });
}, 60_000);

test('behavior: x402_payments_total counts a settled paid read and a refused proof (with its reason)', async () => {
  const payer = privateKeyToAccount(generatePrivateKey());
  const m = await srv.rest('POST', '/admin/sandbox/mint', {
    key: ADMIN_TOKEN,
    body: { chain: 'base-sepolia', asset: 'USDC', address: payer.address, amount: '1' },
  });
  expect(m.status).toBe(200);
  const offered = await fetch(`${srv.url}/v1/yields`);
  expect(offered.status).toBe(402);
  const offer = JSON.parse(Buffer.from(offered.headers.get('payment-required')!, 'base64').toString('utf8'));
  const paid = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': await signProof(payer, offer) } });
  expect(paid.status).toBe(200);
  const refused = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': 'not-a-proof' } });
  expect(refused.status).toBe(402);
  const reason = ((await refused.json()) as Json).details.reason;
  expect(typeof reason).toBe('string');

  const { samples } = await scrape();
  expect(value(samples, 'x402_payments_total', { outcome: 'settled' })).toBe(1);
  expect(value(samples, 'x402_payments_total', { outcome: 'refused', reason })).toBe(1);
  expect(sum(samples, 'x402_payments_total', { outcome: 'settlement_failed' })).toBe(0);
  expect(value(samples, 'x402_paid_reads_total', { outcome: 'settled' })).toBe(1);
}, 60_000);

test('behavior: credits_charged_total shows exactly what the key was charged, by operation, over REST and GraphQL; a paid read and a failure charge nothing', async () => {
  const q = await srv.gql('{ wallet(userId: "metrics-lender") { id } }', undefined, key);
  expect(q.status).toBe(200);
  expect(q.body.errors).toBeUndefined();
  charge('getWallet');
  // a failure is refunded, so it is not counted
  const missing = await srv.rest('GET', '/v1/wallets/nobody-here', { key });
  expect(missing.status).toBe(404);

  const { samples } = await scrape();
  const shown = Object.fromEntries(samples.filter((s) => s.name === 'credits_charged_total').map((s) => [s.labels.operation, s.value]));
  expect(shown).toEqual(charged);
  // what the account's usage says it spent, to the credit
  expect((await srv.admin.usage(accountId)).credits.used).toBe(Object.values(charged).reduce((a, b) => a + b, 0));
});

test('behavior: every credit-costing REST operation has its route named after it (how credits are counted)', () => {
  const named = new Set(srv.service.routes.filter((r) => r.path.startsWith('/v1/')).map((r) => r.name));
  const restOperations = (Object.keys(CREDIT_COST) as Operation[]).filter((op) => CREDIT_COST[op] > 0 && op !== 'watchIntent');
  expect(restOperations.filter((op) => !named.has(op))).toEqual([]);
});

test('behavior: the operations guide (docs/operations.md) names every metric the service exposes (besides the process defaults), with its type', async () => {
  const { text } = await scrape();
  const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
  const exposed = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! })).filter((m) => !/^(process|nodejs)_/.test(m.name));
  expect(exposed.length).toBeGreaterThanOrEqual(9);
  const undocumented = exposed.filter((m) => !new RegExp('\\| `' + m.name + '` \\| ' + m.type + ' \\|').test(guide));
  expect(undocumented).toEqual([]);
});
