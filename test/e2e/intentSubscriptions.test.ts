import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';
import { PROTOCOLS_WITHOUT_PERMITS } from '../helpers/withoutPermits';

/** Intent progress over graphql-ws (and SSE) against the real server and the shared devnets. */
let srv: TestServer;
let key: string;
const clients: Client[] = [];

const ORDER = ['PENDING', 'PLANNING', 'EXECUTING', 'COMPLETED', 'FAILED'];
const SUBSCRIPTION = `subscription($id: ID!) { intentUpdated(id: $id) { id status version: createdAt results { completedSteps finalAmount transactions { txHash } } } }`;

function wsClient(authorization?: string, lazy = true): Client {
  const c = createClient({
    url: srv.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: authorization ? { authorization } : {},
    lazy,
    retryAttempts: 0,
  });
  clients.push(c);
  return c;
}

/** Collects every `next` of one subscription until it completes (or errors). */
function collect(c: Client, id: string): Promise<{ data: any[]; errors: any[] }> {
  const data: any[] = [];
  const errors: any[] = [];
  return new Promise((resolve) => {
    c.subscribe(
      { query: SUBSCRIPTION, variables: { id } },
      {
        next: (r) => (r.errors ? errors.push(...r.errors) : data.push(r.data!.intentUpdated)),
        error: (e) => {
          errors.push(e);
          resolve({ data, errors });
        },
        complete: () => resolve({ data, errors }),
      },
    );
  });
}

async function fundedWallet(userId: string, amount: string): Promise<string> {
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId } });
  expect(w.status).toBe(201);
  const m = await srv.rest('POST', '/admin/sandbox/mint', {
    key: ADMIN_TOKEN,
    body: { chain: 'base-sepolia', asset: 'USDC', address: w.body.address, amount },
  });
  expect(m.status).toBe(200);
  return w.body.id;
}

async function lend(walletId: string, amount: number): Promise<string> {
  const r = await srv.rest('POST', '/v1/intents', { key, body: { walletId, action: 'lend', amount, chain: 'base-sepolia' } });
  expect(r.status).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' }, { protocols: PROTOCOLS_WITHOUT_PERMITS });
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await srv?.stop();
});

it('behavior: a lend intent subscription receives its states in order, then the final results, then completes', async () => {
  const walletId = await fundedWallet('sub-lender', '25');
  const intentId = await lend(walletId, 10);
  const { data, errors } = await collect(wsClient(`Bearer ${key}`), intentId);
  expect(errors).toEqual([]);
  expect(data.length).toBeGreaterThanOrEqual(2);
  expect(data.every((d) => d.id === intentId)).toBe(true);
  const ranks = data.map((d) => ORDER.indexOf(d.status));
  expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  const last = data[data.length - 1];
  expect(last.status).toBe('COMPLETED');
  expect(last.results.completedSteps).toBe(1);
  expect(last.results.finalAmount).toBe('10');
  expect(last.results.transactions.length).toBeGreaterThanOrEqual(2);
});

it('behavior: 500 concurrent subscribers to one intent all receive the final state', async () => {
  const walletId = await fundedWallet('sub-fanout', '5');
  const intentId = await lend(walletId, 2);
  const client = wsClient(`Bearer ${key}`);
  const all = await Promise.all(Array.from({ length: 500 }, () => collect(client, intentId)));
  for (const r of all) {
    expect(r.errors).toEqual([]);
    expect(r.data[r.data.length - 1].status).toBe('COMPLETED');
  }
});

it('error: an unauthenticated WebSocket is rejected before any operation', async () => {
  const r = await collect(wsClient(undefined), 'intent_whatever');
  expect(r.data).toEqual([]);
  expect(r.errors).toHaveLength(1);
  expect((r.errors[0] as { code?: number }).code).toBe(4403);
});

it('error: subscribing to an unknown intent carries extensions.code INTENT_NOT_FOUND', async () => {
  const r = await collect(wsClient(`Bearer ${key}`), 'intent_doesnotexist');
  expect(r.data).toEqual([]);
  expect(r.errors[0].extensions.code).toBe('INTENT_NOT_FOUND');
});

it('behavior: the same subscription over SSE streams to the final state', async () => {
  const walletId = await fundedWallet('sub-sse', '5');
  const intentId = await lend(walletId, 1);
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query: SUBSCRIPTION, variables: { id: intentId } }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text();
  const events = text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)))
    .filter((e) => e.data);
  expect(events[events.length - 1].data.intentUpdated.status).toBe('COMPLETED');
});

it('behavior: a disconnect releases the subscription (no listener left on the bus)', async () => {
  const deps = srv.service.deps;
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  const w = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'sub-release' } });
  // An intent that never moves: the subscription stays open until the client goes away.
  const now = new Date().toISOString();
  await deps.store.intents.insert({
    id: 'intent_release_probe',
    accountId: acct.accountId,
    walletId: w.body.id,
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
  const before = deps.engine.bus.size();
  const client = wsClient(`Bearer ${acct.key}`);
  const got: any[] = [];
  await new Promise<void>((resolve) => {
    client.subscribe(
      { query: SUBSCRIPTION, variables: { id: 'intent_release_probe' } },
      { next: (r) => (got.push(r), resolve()), error: () => resolve(), complete: () => resolve() },
    );
  });
  expect(got).toHaveLength(1);
  expect(deps.engine.bus.size()).toBe(before + 1);
  await client.dispose();
  for (let i = 0; i < 50 && deps.engine.bus.size() > before; i++) await new Promise((r) => setTimeout(r, 20));
  expect(deps.engine.bus.size()).toBe(before);
});
