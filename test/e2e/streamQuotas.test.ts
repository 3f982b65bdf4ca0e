import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../helpers/server';
import { PLANS } from '../../src/domain/plans';

const MAX_SOCKETS = { free: PLANS.free.maxSockets };
const MAX_SUBSCRIPTIONS = { free: PLANS.free.maxSubscriptions };

/** One account cannot hold every socket and subscription slot: per-plan caps on WebSocket connections and live subscriptions. */
let srv: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await srv?.stop();
});

function client(key: string, onClosed?: (code: number) => void): Client {
  const c = createClient({
    url: srv.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined, // a refused socket is the point of one test, not noise to print
    on: { closed: (e) => onClosed?.((e as { code: number }).code) },
  });
  clients.push(c);
  return c;
}

const connected = (c: Client) => new Promise<void>((resolve) => c.on('connected', () => resolve()));

test('error: a free account holds at most 5 WebSocket connections; the 6th is closed with 4429, and a slot frees when one closes', async () => {
  const free = await srv.admin.createAccount({ plan: 'free' });
  const open = Array.from({ length: MAX_SOCKETS.free }, () => client(free.key));
  await Promise.all(open.map(connected));
  const code = await new Promise<number>((resolve) => client(free.key, resolve));
  expect(code).toBe(4429);
  await open[0]!.dispose();
  await new Promise((r) => setTimeout(r, 100));
  await connected(client(free.key));
});

test('error: a free account holds at most 50 live subscriptions; the 51st gets RATE_LIMIT_EXCEEDED, and completing one frees a slot', async () => {
  const free = await srv.admin.createAccount({ plan: 'free' });
  const w = await srv.rest('POST', '/v1/wallets', { key: free.key, body: { userId: 'quota-subs' } });
  await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', asset: 'USDC', address: w.body.address, amount: '1' } });
  // the bridge's mint side keeps failing on this server: the intent stays executing, its subscriptions stay live
  await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', kind: 'attestation-error', count: 100 } });
  const intent = await srv.rest('POST', '/v1/intents', {
    key: free.key,
    body: { walletId: w.body.id, action: 'bridge', amount: 1, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' },
  });
  const c = client(free.key);
  await connected(c);
  const query = `subscription { intentUpdated(id: "${intent.body.id}") { status } }`;
  let unsubscribeFirst: () => void = () => undefined;
  const first = new Promise<void>((resolve) => {
    let seen = 0;
    for (let i = 0; i < MAX_SUBSCRIPTIONS.free; i++) {
      const stop = c.subscribe({ query }, { next: () => ++seen === MAX_SUBSCRIPTIONS.free && resolve(), error: () => undefined, complete: () => undefined });
      if (i === 0) unsubscribeFirst = stop;
    }
  });
  await first;
  const over = await new Promise<Json>((resolve) =>
    c.subscribe({ query }, { next: () => resolve({ ok: true }), error: (e) => resolve(e), complete: () => undefined }),
  );
  expect((over as Json[])[0].extensions).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', maxSubscriptions: MAX_SUBSCRIPTIONS.free });
  unsubscribeFirst();
  await new Promise((r) => setTimeout(r, 100));
  const again = await new Promise<Json>((resolve) => c.subscribe({ query }, { next: (r) => resolve(r), error: (e) => resolve(e), complete: () => undefined }));
  expect(again.data?.intentUpdated.status).toBeDefined();
});

/** An SSE subscription (POST /graphql, Accept: text/event-stream): resolves with its first event once the server sent it; `close()` ends the request. */
async function openSse(key: string, query: string): Promise<{ first: string; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
    signal: ac.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/^data:.*\n\n/m.test(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return { first: text, close: () => ac.abort() };
}

/** Streams of `transport` open on the server, as GET /metrics counts them. */
async function openStreams(transport: 'sse' | 'websocket'): Promise<number> {
  const text = await (await fetch(`${srv.url}/metrics`)).text();
  return Number(new RegExp(`^graphql_subscriptions_open\\{transport="${transport}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** Reads the count of open `transport` streams until it is `n` (each read is a request to the server, which meanwhile handles the close). */
async function untilOpenStreams(transport: 'sse' | 'websocket', n: number): Promise<void> {
  let seen = await openStreams(transport);
  while (seen !== n) seen = await openStreams(transport);
}

test('error: SSE subscriptions take the same 50 slots of a free account: the 51st (SSE or WebSocket) gets RATE_LIMIT_EXCEEDED, and closing an SSE stream frees its slot', async () => {
  const free = await srv.admin.createAccount({ plan: 'free' });
  const w = await srv.rest('POST', '/v1/wallets', { key: free.key, body: { userId: 'quota-sse' } });
  await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', asset: 'USDC', address: w.body.address, amount: '1' } });
  // the bridge's mint side keeps failing on this server: the intent stays executing, its subscriptions stay live
  await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', kind: 'attestation-error', count: 100 } });
  const intent = await srv.rest('POST', '/v1/intents', {
    key: free.key,
    body: { walletId: w.body.id, action: 'bridge', amount: 1, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' },
  });
  const query = `subscription { intentUpdated(id: "${intent.body.id}") { status } }`;
  const streams: { first: string; close(): void }[] = [];
  try {
    for (let i = 0; i < MAX_SUBSCRIPTIONS.free; i++) streams.push(await openSse(free.key, query));
    for (const s of streams) expect(s.first).toContain('"intentUpdated"');
    // before: the quota lived in the WebSocket server only, and all 60 of an SSE client's streams opened
    const over = await openSse(free.key, query);
    expect(over.first).toContain('"code":"RATE_LIMIT_EXCEEDED"');
    expect(over.first).toContain(`"maxSubscriptions":${MAX_SUBSCRIPTIONS.free}`);
    expect(over.first).not.toContain('"intentUpdated"');
    // the WebSocket counts the same slots
    const c = client(free.key);
    await connected(c);
    const viaSocket = await new Promise<Json>((resolve) =>
      c.subscribe({ query }, { next: (r) => resolve(r), error: (e) => resolve(e), complete: () => undefined }),
    );
    expect((viaSocket as Json[])[0].extensions).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', maxSubscriptions: MAX_SUBSCRIPTIONS.free });

    // one stream closed: once the server has seen it end, its slot is free again
    const openBefore = await openStreams('sse');
    streams.shift()!.close();
    await untilOpenStreams('sse', openBefore - 1);
    const again = await openSse(free.key, query);
    streams.push(again);
    expect(again.first).toContain('"intentUpdated"');
  } finally {
    for (const s of streams) s.close();
  }
});
