import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type Json, type TestAccount, type TestServer } from '../helpers/server';
import { buildSchema } from '../../src/graphql/schema';
import { staticCost } from '../../src/graphql/staticCost';
import { MAX_OPERATION_COST } from '../../src/graphql/operationCost';
import { seedStandingIntents } from '../helpers/standingSeed';

/**
 * Issue 41's finding: GraphQL priced only its root fields, so one cheap
 * operation could read 100 × 110 pages of decisions and hold the service.
 * Here a pro account holds 100 standing intents of 20 decisions each (seeded
 * in the store), and the operations of the issue are sent 4 at once while
 * /healthz is timed: each is refused before it runs, on every transport, with
 * its computed cost, and /healthz answers within the issue's 100 ms.
 */
let srv: TestServer;
let acct: TestAccount;
let standingId: string;
beforeAll(async () => {
  srv = await startTestServer();
  acct = await srv.admin.createAccount({ plan: 'pro' });
  const wallet = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'bomb-owner' } });
  expect(wallet.status).toBe(201);
  const standing = await srv.rest('POST', '/v1/standing-intents', { key: acct.key, body: { walletId: wallet.body.id, asset: 'USDC' } });
  expect(standing.status).toBe(201);
  standingId = standing.body.id;
  await seedStandingIntents(srv.service.deps.store, acct.accountId, 100, 20);
}, 120_000);
afterAll(() => srv?.stop());

const aliases = (n: number, field: (i: number) => string) => Array.from({ length: n }, (_, i) => field(i)).join(' ');
/** The issue's operation: 110 aliases of decisions(first: 100) under standingIntents(first: 100), under the 2,000-token bound. */
const BOMB = `{ standingIntents(first: 100) { edges { node { id ${aliases(110, (i) => `d${i}: decisions(first: 100) { edges { node { id } } }`)} } } } }`;
/** 300 aliases of a standing intent's earnings (each one reads positions on chain and walks the wallet's intents). */
const EARNINGS = `query($id: ID!) { standingIntent(id: $id) { ${aliases(300, (i) => `e${i}: earnings { moves }`)} } }`;
const costOf = (query: string, variables?: Record<string, unknown>) => staticCost(buildSchema(), parse(query), undefined, variables);
const used = async () => (await srv.admin.usage(acct.accountId)).credits.used;

/**
 * Runs `send` 4 times at once and times GET /healthz, one after another, until
 * all four have answered: the answers and the slowest /healthz (ms). On the
 * code before the ceiling, the bomb ran for seconds and /healthz waited for it.
 * The test machine is shared and its process collects garbage now and then: a
 * round with a pause of its own is run again, up to ROUNDS times, and the best
 * round counts (a bomb that runs stalls every round).
 */
const ROUNDS = 3;
async function fourAtOnceTimingHealthz(send: () => Promise<Json>): Promise<{ answers: Json[]; slowestHealthzMs: number }> {
  // Warm, as a running service is: the operation seen once (its code compiled, its text parsed) and /healthz's connection open.
  await send();
  await (await fetch(`${srv.url}/healthz`)).arrayBuffer();
  let best = { answers: [] as Json[], slowestHealthzMs: Infinity };
  for (let round = 0; round < ROUNDS && best.slowestHealthzMs >= 100; round++) {
    let settled = false;
    const all = Promise.all([send(), send(), send(), send()]).finally(() => (settled = true));
    const times: number[] = [];
    do {
      const t0 = performance.now();
      const h = await fetch(`${srv.url}/healthz`);
      await h.arrayBuffer();
      times.push(performance.now() - t0);
      expect(h.status).toBe(200);
    } while (!settled);
    const answers = await all;
    if (Math.max(...times) < best.slowestHealthzMs) best = { answers, slowestHealthzMs: Math.max(...times) };
  }
  return best;
}

function overWebSocket(query: string, variables?: Record<string, unknown>): Promise<Json> {
  const ws = createClient({
    url: srv.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${acct.key}` },
    retryAttempts: 0,
  });
  return new Promise<Json>((resolve, reject) => {
    let result: Json;
    ws.subscribe(
      { query, variables },
      { next: (r) => (result = r), error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)), complete: () => resolve(result) },
    );
  }).finally(() => ws.dispose());
}

/** The operation over server-sent events (yoga): the first `next` event's payload. */
async function overSse(query: string, variables?: Record<string, unknown>): Promise<Json> {
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${acct.key}` },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  const data = /^data: (.*)$/m.exec(text);
  if (!data) throw new Error(`no event in ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(data[1]!);
}

describe('GraphQL priced by what it reads (issue 41)', () => {
  test('error: the bomb of issue 41 sent 4 times at once is refused before it runs (QUERY_TOO_COMPLEX, its cost and the ceiling in details, no credit spent) and /healthz answers within 100 ms', async () => {
    const cost = costOf(BOMB);
    expect(cost).toBeGreaterThan(MAX_OPERATION_COST);
    const before = await used();
    const { answers, slowestHealthzMs } = await fourAtOnceTimingHealthz(async () => (await srv.gql(BOMB, undefined, acct.key)).body);
    for (const a of answers) {
      expect(a.data).toBeUndefined();
      expect(a.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', details: { cost, maxCost: MAX_OPERATION_COST } });
    }
    expect(slowestHealthzMs).toBeLessThan(100);
    expect(await used()).toBe(before);
  });

  test('error: 300 aliases of earnings sent 4 times at once are refused before they run and /healthz answers within 100 ms', async () => {
    const variables = { id: standingId };
    const cost = costOf(EARNINGS, variables);
    expect(cost).toBeGreaterThan(MAX_OPERATION_COST);
    const before = await used();
    const { answers, slowestHealthzMs } = await fourAtOnceTimingHealthz(async () => (await srv.gql(EARNINGS, variables, acct.key)).body);
    for (const a of answers) {
      expect(a.data).toBeUndefined();
      expect(a.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', details: { cost, maxCost: MAX_OPERATION_COST } });
    }
    expect(slowestHealthzMs).toBeLessThan(100);
    expect(await used()).toBe(before);
  });

  test('behavior: four operations just under the ceiling (aliased pages of decisions under 100 standing intents) sent at once all answer, and /healthz answers within 100 ms', async () => {
    const page = (n: number) =>
      `{ standingIntents(first: 100) { edges { node { id ${aliases(4, (i) => `d${i}: decisions(first: ${n}) { edges { node { id sampleAt outcome reason } } }`)} } } } }`;
    let n = 1;
    while (costOf(page(n + 1)) <= MAX_OPERATION_COST) n++;
    const query = page(n);
    expect(costOf(query)).toBeGreaterThan(MAX_OPERATION_COST * 0.9);
    // Hundreds of pages each read at once from the memory store: before, all of them and their completion ran in one turn.
    const { answers, slowestHealthzMs } = await fourAtOnceTimingHealthz(async () => (await srv.gql(query, undefined, acct.key)).body);
    for (const a of answers) {
      expect(a.errors).toBeUndefined();
      expect(a.data.standingIntents.edges).toHaveLength(100);
    }
    expect(slowestHealthzMs).toBeLessThan(100);
  });

  test('error: the same ceiling on every transport: the bomb over GET, WebSocket (graphql-ws) and SSE is refused with the same cost', async () => {
    const cost = costOf(BOMB);
    const expected = { code: 'QUERY_TOO_COMPLEX', details: { cost, maxCost: MAX_OPERATION_COST } };
    const get = await srv.rest('GET', `/graphql?query=${encodeURIComponent(BOMB)}`, { key: acct.key, headers: { Accept: 'application/json' } });
    expect(get.body.errors[0].extensions).toMatchObject(expected);
    expect((await overWebSocket(BOMB)).errors[0].extensions).toMatchObject(expected);
    const sse = await overSse(BOMB);
    expect(sse.data).toBeUndefined();
    expect(sse.errors[0].extensions).toMatchObject(expected);
    // first from a variable is priced as the literal: 100 pages of 100 decisions, 2 aliases deep, stays refused.
    const viaVariable = `query($n: Int) { standingIntents(first: $n) { edges { node { ${aliases(100, (i) => `d${i}: decisions(first: $n) { edges { node { id } } }`)} } } } }`;
    const ws = await overWebSocket(viaVariable, { n: 100 });
    expect(ws.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', details: { cost: costOf(viaVariable, { n: 100 }) } });
  });

  test('behavior: an operation under the ceiling is charged by its cost: root credits, plus one credit per 5,000 units beyond its allowance', async () => {
    const query = '{ standingIntents(first: 100) { edges { node { id decisions(first: 20) { edges { node { id sampleAt outcome } } } } } } }';
    const cost = costOf(query);
    expect(cost).toBeLessThanOrEqual(MAX_OPERATION_COST);
    const before = await used();
    const r = await srv.gql(query, undefined, acct.key);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.standingIntents.edges).toHaveLength(100);
    // listStandingIntents costs 1 credit, which includes 5,000 units.
    expect(await used()).toBe(before + 1 + Math.ceil((cost - 5_000) / 5_000));
  });
});
