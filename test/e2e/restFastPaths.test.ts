import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService, type RunningService } from '../../src/service';
import { ADMIN_TOKEN, TEST_MASTER_KEY } from '../helpers/server';

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
  service = await startService(loadConfig({ PORT: '0', ADMIN_TOKEN, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY, CORS_ORIGINS: 'https://app.example', ...shared }), createLogger('info', sink));
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
  expect(Object.keys(stable(fast.headers))).toEqual(expect.arrayContaining(['content-security-policy', 'x-content-type-options', 'access-control-allow-origin', 'content-type', 'content-length']));
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

test('behavior: HEAD and other methods on /healthz still go through Koa (HEAD 200 without a body, POST 405 with Allow)', async () => {
  const head = await fetch(`${service.url}/healthz`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
  const post = await fetch(`${service.url}/healthz`, { method: 'POST' });
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toContain('GET');
});
