import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IntentWaitTimeoutError, ServiceApiError, createRestClient, waitForIntent } from '../../../sdk/src';

/**
 * waitForIntent against a real HTTP server that answers a script: what it
 * waits for between reads (reported by onWait, not measured), when it stops,
 * and how it fails. Retry-After values are 1 s, so the file takes a few seconds.
 */

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

let server: Server;
let url: string;
let script: Answer[] = [];
let requests: string[] = [];
/** Answered once the script is used up. */
let fallback: Answer;

const intent = (status: string) => ({ id: 'intent_1', status, updatedAt: `2026-01-01T00:00:0${requests.length}.000Z` });

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    const a = script.shift() ?? fallback;
    res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  script = [];
  requests = [];
  fallback = { status: 200, body: intent('executing') };
});

const rest = () => createRestClient({ baseUrl: url, apiKey: 'svc_sk_test' });

test('behavior: reads GET /v1/intents/:id until final; a 429 and a 503 are waited out for their Retry-After; a pending answer for intervalMs', async () => {
  script = [
    { status: 429, headers: { 'Retry-After': '1' }, body: { error: 'RATE_LIMIT_EXCEEDED', message: 'slow down', details: {} } },
    { status: 503, headers: { 'Retry-After': '1' }, body: { error: 'SERVICE_UNAVAILABLE', message: 'later', details: {} } },
    { status: 200, headers: { 'Retry-After': '5' }, body: intent('executing') },
    { status: 200, body: intent('completed') },
  ];
  const waits: unknown[] = [];
  const updates: string[] = [];
  const final = await waitForIntent(rest(), 'intent_1', { intervalMs: 20, onWait: (...w) => waits.push(w), onUpdate: (i) => updates.push(i.status) });
  expect(final.status).toBe('completed');
  expect(requests).toEqual(Array(4).fill('GET /v1/intents/intent_1 Bearer svc_sk_test'));
  expect(waits).toEqual([
    [1000, 'retry-after', 429],
    [1000, 'retry-after', 503],
    [20, 'pending'],
  ]);
  expect(updates).toEqual(['executing', 'completed']);
});

test('behavior: a 503 without Retry-After backs off, doubling from intervalMs; a failed intent resolves too', async () => {
  script = [
    { status: 503, body: { error: 'NETWORK_ERROR', message: 'x', details: {} } },
    { status: 503, body: { error: 'NETWORK_ERROR', message: 'x', details: {} } },
    { status: 200, body: intent('failed') },
  ];
  const waits: unknown[] = [];
  const final = await waitForIntent(rest(), 'intent_1', { intervalMs: 10, onWait: (...w) => waits.push(w) });
  expect(final.status).toBe('failed');
  expect(waits).toEqual([
    [10, 'backoff', 503],
    [20, 'backoff', 503],
  ]);
});

test('error: another error answer rejects with its ServiceApiError at once (404 INTENT_NOT_FOUND, its X-Request-Id)', async () => {
  script = [
    { status: 404, headers: { 'X-Request-Id': 'req-42' }, body: { error: 'INTENT_NOT_FOUND', message: 'no such intent', details: { intentId: 'intent_1' } } },
  ];
  const e = await waitForIntent(rest(), 'intent_1').catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ServiceApiError);
  expect(e).toMatchObject({ code: 'INTENT_NOT_FOUND', status: 404, message: 'no such intent', requestId: 'req-42', details: { intentId: 'intent_1' } });
  expect(requests).toHaveLength(1);
});

test('behavior: abortable: a signal aborted during a Retry-After wait rejects with its reason, and nothing more is read', async () => {
  fallback = { status: 429, headers: { 'Retry-After': '60' }, body: { error: 'RATE_LIMIT_EXCEEDED', message: 'x', details: {} } };
  const controller = new AbortController();
  const reason = new Error('user gave up');
  const waiting = waitForIntent(rest(), 'intent_1', { signal: controller.signal, onWait: () => controller.abort(reason) });
  await expect(waiting).rejects.toBe(reason);
  expect(requests).toHaveLength(1);
});

test('error: timeoutMs → IntentWaitTimeoutError with the last intent seen', async () => {
  const e = await waitForIntent(rest(), 'intent_1', { intervalMs: 50, timeoutMs: 300 }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(IntentWaitTimeoutError);
  expect((e as IntentWaitTimeoutError).lastSeen?.status).toBe('executing');
  expect(requests.length).toBeGreaterThan(0);
});

test('behavior: no answer at all (connection refused) is tried again maxNetworkErrors times, then rejects', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const waits: unknown[] = [];
  const e = await waitForIntent(createRestClient({ baseUrl: `http://127.0.0.1:${port}` }), 'intent_1', {
    intervalMs: 5,
    maxNetworkErrors: 2,
    onWait: (...w) => waits.push(w),
  }).catch((x: unknown) => x);
  // fetch's own TypeError (another realm than jest's: compared by name)
  expect([(e as Error).name, (e as Error).message]).toEqual(['TypeError', 'fetch failed']);
  expect(waits).toEqual([
    [5, 'backoff'],
    [10, 'backoff'],
  ]);
});
