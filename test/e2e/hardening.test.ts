import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server';

/** HTTP hardening: security headers on every answer, CORS only for configured origins, slow clients dropped on time. */
let plain: TestServer;
let withCors: TestServer;
const APP = 'https://app.example.com';

beforeAll(async () => {
  [plain, withCors] = await Promise.all([startTestServer(), startTestServer({ CORS_ORIGINS: `${APP}, https://admin.example.com` })]);
}, 60_000);
afterAll(() => Promise.all([plain?.stop(), withCors?.stop()]));

describe('security headers', () => {
  test.each([
    ['GET', '/healthz'],
    ['GET', '/docs'],
    ['GET', '/v1/openapi.json'],
    ['GET', '/v1/intents'],
    ['POST', '/graphql'],
    ['GET', '/nowhere'],
  ])('security: %s %s carries nosniff, no-referrer, a CSP with no inline script and frame-ancestors none', async (method, path) => {
    const r = await fetch(plain.url + path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: method === 'POST' ? '{"query":"{__typename}"}' : undefined,
    });
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-eval');
  });

  test('security: the GraphiQL page allows exactly its own inline scripts, by hash', async () => {
    const r = await fetch(`${plain.url}/graphql`, { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(200);
    const page = await r.text();
    const scripts = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const csp = r.headers.get('content-security-policy')!;
    for (const s of scripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
    expect(csp).not.toContain("'unsafe-inline' 'sha256"); // scripts never inline-unsafe
    expect(csp.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe-inline');
  });
});

describe('CORS', () => {
  test('behavior: off by default: a preflight from any origin gets no Access-Control-Allow-Origin', async () => {
    const r = await fetch(`${plain.url}/graphql`, { method: 'OPTIONS', headers: { Origin: APP, 'Access-Control-Request-Method': 'POST' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('behavior: with CORS_ORIGINS, a preflight from a listed origin is 204 before any authentication, echoing that origin only', async () => {
    for (const path of ['/graphql', '/v1/wallets']) {
      const r = await fetch(withCors.url + path, {
        method: 'OPTIONS',
        headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(APP);
      expect((r.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('authorization');
    }
    const get = await fetch(`${withCors.url}/v1/yields`, { headers: { Origin: APP } });
    expect(get.headers.get('access-control-allow-origin')).toBe(APP);
    expect(get.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    // a paid read's answer keeps the whole exposed list, settlement headers included
    expect(get.headers.get('access-control-expose-headers')).toContain('PAYMENT-RESPONSE');
    expect(get.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED');
  });

  test('security: an origin not on the list is never reflected, and nothing answers with *', async () => {
    for (const origin of ['https://evil.example', 'null', `${APP}.evil.example`]) {
      const r = await fetch(`${withCors.url}/graphql`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } });
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    const r = await fetch(`${withCors.url}/v1/yields`, { headers: { Origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('security: with CORS_ORIGINS, a preflight from an origin not on the list is 204 with no Access-Control-Allow-* header, before admission, the same on every door (was 401 on /graphql, 200 with Allow on /v1 and /admin)', async () => {
    const answers = [];
    for (const path of ['/graphql', '/v1/yields', '/v1/wallets', '/admin/accounts', '/admin/sandbox/mint', '/nowhere']) {
      const r = await fetch(withCors.url + path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      const cors = [...r.headers.keys()].filter((h) => h.startsWith('access-control-'));
      answers.push({ path, status: r.status, cors, allow: r.headers.get('allow'), body: await r.text() });
    }
    expect(answers).toEqual(answers.map(({ path }) => ({ path, status: 204, cors: [], allow: null, body: '' })));
    // a listed origin keeps its answer on the same paths
    const listed = await fetch(`${withCors.url}/admin/accounts`, { method: 'OPTIONS', headers: { Origin: APP, 'Access-Control-Request-Method': 'POST' } });
    expect([listed.status, listed.headers.get('access-control-allow-origin')]).toEqual([204, APP]);
  });

  test('error: CORS_ORIGINS that is not a list of origins stops the start, naming the variable', async () => {
    await expect(startTestServer({ CORS_ORIGINS: 'https://*.example.com' })).rejects.toThrow(/CORS_ORIGINS/);
  });
});

describe('slow clients', () => {
  test('security: a client sending one header line a second is dropped soon after the 10 s headers timeout (checked every 2 s), not 30 s later', async () => {
    const { port } = new URL(plain.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined); // the server's 408 and close race the next header line
    const started = Date.now();
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 1_000);
    const closedAfter = await new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
    clearInterval(timer);
    expect(closedAfter).toBeGreaterThanOrEqual(10_000);
    // Node's default check every 30 s let such a client live about 30 s; 20 s leaves room for a loaded machine
    expect(closedAfter).toBeLessThan(20_000);
  }, 30_000);
});
