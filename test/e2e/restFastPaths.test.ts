import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService, type RunningService } from '../../src/service';
import { request, type IncomingMessage } from 'node:http';
import Koa from 'koa';
import { ADMIN_TOKEN, TEST_MASTER_KEY, fitInRateWindow } from '../helpers/server';

/**
 * GET /healthz is answered by the front door before Koa (fastHealthz): its
 * answer must be the Koa route's, header for header, with the same access
 * line. `/healthz?probe` still goes through Koa and is the reference.
 */
let service: RunningService;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  const shared = process.env.SANDBOX_MANIFEST ? { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST } : {};
  service = await startService(
    loadConfig({ PORT: '0', ADMIN_TOKEN, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY, CORS_ORIGINS: 'https://app.example', ...shared }),
    createLogger('info', sink),
  );
});
afterAll(async () => {
  await service?.stop();
});

/** Header names and values, without the ones that differ per answer. */
function stable(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (k !== 'date' && k !== 'x-request-id') out[k] = v;
  });
  return out;
}

const accessLines = (id: string) => lines.filter((l) => l.msg === 'request' && l.requestId === id);

test('behavior: GET /healthz before Koa answers exactly as the Koa route: status, every header (security, CORS), body, X-Request-Id, access line and metric', async () => {
  const headers = { Origin: 'https://app.example' };
  const fast = await fetch(`${service.url}/healthz`, { headers: { ...headers, 'X-Request-Id': 'probe-fast-1' } });
  const koa = await fetch(`${service.url}/healthz?probe`, { headers: { ...headers, 'X-Request-Id': 'probe-koa-1' } });
  expect(fast.status).toBe(200);
  expect(koa.status).toBe(200);
  expect(await fast.text()).toBe(await koa.text());
  expect(stable(fast.headers)).toEqual(stable(koa.headers));
  expect(Object.keys(stable(fast.headers))).toEqual(
    expect.arrayContaining(['content-security-policy', 'x-content-type-options', 'access-control-allow-origin', 'content-type', 'content-length']),
  );
  expect(fast.headers.get('x-request-id')).toBe('probe-fast-1');

  // an unsafe id is replaced, as Koa's requestId() does
  const unsafe = await fetch(`${service.url}/healthz`, { headers: { 'X-Request-Id': 'bad id <x>' } });
  expect(unsafe.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);

  const [f] = accessLines('probe-fast-1');
  const [k] = accessLines('probe-koa-1');
  const shape = (l: Record<string, unknown> | undefined) => l && { ...l, time: 0, durationMs: 0, requestId: '' };
  expect(shape(f)).toEqual(shape(k));
  expect(f).toMatchObject({ level: 30, service: 'wallet-intent-service', method: 'GET', route: '/healthz', path: '/healthz', status: 200, msg: 'request' });
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  expect(metrics).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/);
});

test('behavior: without CORS, GET /healthz (answered before the hardening, its security headers in its own head) answers exactly as the Koa route', async () => {
  const shared = process.env.SANDBOX_MANIFEST ? { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST } : {};
  const own: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) own.push(JSON.parse(l));
      done();
    },
  });
  const plain = await startService(loadConfig({ PORT: '0', ADMIN_TOKEN, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY, ...shared }), createLogger('info', sink));
  try {
    const fast = await fetch(`${plain.url}/healthz`, { headers: { 'X-Request-Id': 'plain-fast-1' } });
    const koa = await fetch(`${plain.url}/healthz?probe`, { headers: { 'X-Request-Id': 'plain-koa-1' } });
    expect(fast.status).toBe(200);
    expect(await fast.text()).toBe(await koa.text());
    expect(Object.entries(stable(fast.headers))).toEqual(Object.entries(stable(koa.headers)));
    expect(Object.keys(stable(fast.headers))).toEqual(
      expect.arrayContaining(['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy']),
    );
    expect(fast.headers.get('access-control-allow-origin')).toBeNull();
    expect(fast.headers.get('x-request-id')).toBe('plain-fast-1');
    const unsafe = await fetch(`${plain.url}/healthz`, { headers: { 'X-Request-Id': 'bad id <x>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const line = (id: string) => own.find((l) => l.msg === 'request' && l.requestId === id);
    const shape = (l: Record<string, unknown> | undefined) => l && { ...l, time: 0, durationMs: 0, requestId: '' };
    expect(shape(line('plain-fast-1'))).toEqual(shape(line('plain-koa-1')));
    expect(line('plain-fast-1')).toMatchObject({ route: '/healthz', status: 200 });
  } finally {
    await plain.stop();
  }
});

test('behavior: HEAD and other methods on /healthz still go through Koa (HEAD 200 without a body, POST 405 with Allow)', async () => {
  const head = await fetch(`${service.url}/healthz`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
  const post = await fetch(`${service.url}/healthz`, { method: 'POST' });
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toContain('GET');
});

// ---------------------------------------------------------------- GET /v1/yields with a key (fastKeyedReads)

/**
 * GET /v1/yields with a key is answered by the front door before Koa
 * (fastKeyedReads); `/v1/yields?` (an empty query) still goes through Koa
 * and is the reference: same status, headers, body and access line, for a
 * success and for every refusal of the admission path.
 */
const ADMIN_HEADERS = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

async function newAccount(body: Record<string, unknown>): Promise<{ accountId: string; key: string; keyId: string }> {
  const res = await fetch(`${service.url}/admin/accounts`, { method: 'POST', headers: ADMIN_HEADERS, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  const b = await res.json();
  return { accountId: b.account.id, key: b.apiKey.key, keyId: b.apiKey.id };
}

async function newKey(accountId: string, scopes: string[]): Promise<{ id: string; key: string }> {
  const res = await fetch(`${service.url}/admin/accounts/${accountId}/keys`, { method: 'POST', headers: ADMIN_HEADERS, body: JSON.stringify({ scopes }) });
  expect(res.status).toBe(201);
  return res.json();
}

/**
 * The answer to `method` `path` with `authorization`, the body as text, and whether Koa handled
 * it. The path is sent as given (a URL, in fetch or http.request, drops an empty `?`).
 */
async function get(path: string, authorization: string | undefined, requestId: string, method = 'GET') {
  const handled = jest.spyOn(Koa.prototype, 'createContext');
  try {
    const base = new URL(service.url);
    const headers: Record<string, string> = {
      Origin: 'https://app.example',
      'X-Request-Id': requestId,
      ...(authorization !== undefined && { Authorization: authorization }),
    };
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ host: base.hostname, port: base.port, path, method, headers }, resolve).on('error', reject).end(),
    );
    let text = '';
    for await (const chunk of res) text += String(chunk);
    const h = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
    return { status: res.statusCode!, headers: h, text, koa: handled.mock.calls.length > 0 };
  } finally {
    handled.mockRestore();
  }
}

/** Headers that differ between two consecutive answers by design: the date, the id, and the counters the first one moved. */
function comparable(h: Headers): Record<string, string> {
  const out = stable(h);
  delete out['x-ratelimit-remaining'];
  delete out['x-credits-remaining'];
  return out;
}

/** Asks the fast path, then Koa, and expects the same answer (the counters one apart when the first one moved them). */
async function expectSameAnswer(authorization: string | undefined, tag: string, moves: { rate: boolean; credits: boolean }) {
  const fast = await get('/v1/yields', authorization, `${tag}-fast`);
  const koa = await get('/v1/yields?', authorization, `${tag}-koa`);
  expect({ fast: fast.koa, koa: koa.koa }).toEqual({ fast: false, koa: true });
  expect(fast.status).toBe(koa.status);
  expect(fast.text.replace(`${tag}-fast`, '')).toBe(koa.text.replace(`${tag}-koa`, ''));
  expect(comparable(fast.headers)).toEqual(comparable(koa.headers));
  expect(fast.headers.get('x-request-id')).toBe(`${tag}-fast`);
  for (const [header, moved] of [
    ['x-ratelimit-remaining', moves.rate],
    ['x-credits-remaining', moves.credits],
  ] as const) {
    const [f, k] = [fast.headers.get(header), koa.headers.get(header)];
    if (moved && f !== null && f !== 'unlimited' && Number(f) > 0) expect(Number(k)).toBe(Number(f) - 1);
    else expect(k).toBe(f);
  }
  const shape = (l: Record<string, unknown> | undefined) => l && { ...l, time: 0, durationMs: 0, requestId: '' };
  const [fl] = accessLines(`${tag}-fast`);
  expect(fl).toMatchObject({ method: 'GET', route: '/v1/yields', path: '/v1/yields', status: fast.status });
  expect(shape(fl)).toEqual(shape(accessLines(`${tag}-koa`)[0]));
  return { fast, koa };
}

describe('GET /v1/yields with a key, before Koa', () => {
  beforeAll(() => fitInRateWindow(20_000));

  test('behavior: a success answers exactly as the Koa route: status, headers (security, CORS, rate, credits), body, access line; one credit and one request each', async () => {
    const charged = async () =>
      Number(/credits_charged_total\{operation="getYields"\} (\d+)/.exec(await (await fetch(`${service.url}/metrics`)).text())?.[1] ?? 0);
    const chargedBefore = await charged();
    const acct = await newAccount({ plan: 'free', requestsPerMinute: 1000 });
    const { fast, koa } = await expectSameAnswer(`Bearer ${acct.key}`, 'yields-ok', { rate: true, credits: true });
    expect(fast.status).toBe(200);
    expect(JSON.parse(fast.text)).toMatchObject({ rates: expect.any(Array) });
    expect(Object.keys(stable(fast.headers))).toEqual(
      expect.arrayContaining([
        'content-security-policy',
        'access-control-allow-origin',
        'x-ratelimit-limit',
        'x-ratelimit-reset',
        'content-type',
        'content-length',
      ]),
    );
    expect([fast.headers.get('x-ratelimit-remaining'), koa.headers.get('x-ratelimit-remaining')]).toEqual(['999', '998']);
    expect([fast.headers.get('x-credits-remaining'), koa.headers.get('x-credits-remaining')]).toEqual(['99', '98']);
    const usage = await (await fetch(`${service.url}/admin/accounts/${acct.accountId}/usage`, { headers: ADMIN_HEADERS })).json();
    expect(usage.credits.used).toBe(2);
    expect(await charged()).toBe(chargedBefore + 2);
  });

  test('error: refusals answer exactly as the Koa route: unknown and malformed keys (401), a revoked key (401 with the rate headers), a key without the read scope (403)', async () => {
    await expectSameAnswer(`Bearer svc_sk_${'ab'.repeat(32)}`, 'yields-unknown', { rate: false, credits: false });
    await expectSameAnswer('Bearer not-a-key', 'yields-malformed', { rate: false, credits: false });
    const acct = await newAccount({ plan: 'free', requestsPerMinute: 1000 });
    const writeOnly = await newKey(acct.accountId, ['write']);
    const { fast } = await expectSameAnswer(`Bearer ${writeOnly.key}`, 'yields-scope', { rate: true, credits: false });
    expect(fast.status).toBe(403);
    expect(JSON.parse(fast.text).error).toBe('FORBIDDEN');
    const revoked = await newKey(acct.accountId, ['read']);
    expect((await get('/v1/yields', `Bearer ${revoked.key}`, 'yields-warm')).status).toBe(200);
    expect((await fetch(`${service.url}/admin/keys/${revoked.id}`, { method: 'DELETE', headers: ADMIN_HEADERS })).status).toBe(204);
    const r = await expectSameAnswer(`Bearer ${revoked.key}`, 'yields-revoked', { rate: false, credits: false });
    expect(r.fast.status).toBe(401);
    expect(r.fast.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  test("error: the request past the rate limit is 429 with Retry-After, and past the month's credits 403 CREDITS_EXHAUSTED, as from the Koa route", async () => {
    const limited = await newAccount({ plan: 'free', requestsPerMinute: 2 });
    for (let i = 0; i < 2; i++) expect((await get('/v1/yields', `Bearer ${limited.key}`, `yields-fill-${i}`)).status).toBe(200);
    const r = await expectSameAnswer(`Bearer ${limited.key}`, 'yields-429', { rate: false, credits: false });
    expect(r.fast.status).toBe(429);
    expect(JSON.parse(r.fast.text).error).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(r.fast.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.fast.headers.get('x-credits-remaining')).toBe('98');

    const spent = await newAccount({ plan: 'free', requestsPerMinute: 1000 });
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    await service.deps.store.usage.increment(`credits:${spent.accountId}:${month}`, 100, new Date(now.getTime() + 40 * 86_400_000));
    const e = await expectSameAnswer(`Bearer ${spent.key}`, 'yields-credits', { rate: true, credits: false });
    expect(e.fast.status).toBe(403);
    expect(JSON.parse(e.fast.text)).toMatchObject({ error: 'CREDITS_EXHAUSTED', details: { limit: 100, used: 100 } });
    expect(e.fast.headers.get('x-credits-remaining')).toBe('0');
  });

  test('behavior: without Authorization, with HEAD, or with a query, GET /v1/yields goes through Koa', async () => {
    expect((await get('/v1/yields', undefined, 'yields-nokey')).koa).toBe(true);
    expect((await get('/v1/yields?asset=USDC', `Bearer svc_sk_${'ab'.repeat(32)}`, 'yields-query')).koa).toBe(true);
    const head = await get('/v1/yields', `Bearer svc_sk_${'ab'.repeat(32)}`, 'yields-head', 'HEAD');
    expect(head.status).toBe(401);
    expect(head.koa).toBe(true);
  });
});
