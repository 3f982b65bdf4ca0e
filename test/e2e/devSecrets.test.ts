import { request } from 'node:http';
import { Writable } from 'node:stream';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService, type RunningService } from '../../src/service';
import { ADMIN_TOKEN, TEST_MASTER_KEY, startTestServer, type TestServer } from '../helpers/server';

/**
 * What a development server gives away, and to whom: the development key
 * (generated and printed in development only; DEV_API_KEY honoured
 * everywhere and never printed), the pages that hold it (to allowed hosts
 * only: DNS rebinding), the development sign-in (development only), and CORS
 * preflights (answered before any authentication, on every door).
 */

const GIVEN_KEY = `svc_sk_${'5e'.repeat(32)}`;
const shared = () => (process.env.SANDBOX_MANIFEST ? { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST } : {});

/** One GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(
  url: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; contentType: string }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET', headers: { ...headers, Host: host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), contentType: String(res.headers['content-type'] ?? '') }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

/** A service started with its log lines kept (JSON objects), for what it says at start. */
async function startLogged(env: Record<string, string>): Promise<{ service: RunningService; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'info', ADMIN_TOKEN, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY, ...shared(), ...env });
  const service = await startService(config, createLogger('info', sink as never));
  return { service, lines };
}

describe('the development key', () => {
  test.each([[{ SERVICE_ENV: 'staging' }], [{ NODE_ENV: 'production', DASHBOARD: 'off' }]])(
    'security: %j starts without a development account, and says why in one line',
    async (env) => {
      const { service, lines } = await startLogged(env);
      try {
        expect(service.devApiKey).toBeUndefined();
        expect(service.devAccountId).toBeUndefined();
        const why = lines.filter((l) => String(l.msg).startsWith('no development account'));
        expect(why).toHaveLength(1);
        expect(why[0]!.msg).toMatch(/DEV_API_KEY is not set and a key is generated in development only/);
      } finally {
        await service.stop();
      }
    },
  );

  test('security: DEV_API_KEY is honoured in staging (it answers) and is never handed out or logged', async () => {
    const { service, lines } = await startLogged({ SERVICE_ENV: 'staging', DEV_API_KEY: GIVEN_KEY });
    try {
      expect(service.devApiKey).toBeUndefined();
      expect(service.devAccountId).toEqual(expect.any(String));
      const usage = await fetch(`${service.url}/v1/usage`, { headers: { Authorization: `Bearer ${GIVEN_KEY}` } });
      expect(usage.status).toBe(200);
      expect(JSON.stringify(lines)).not.toContain(GIVEN_KEY.slice(7));
    } finally {
      await service.stop();
    }
  });

  test('security: in development a DEV_API_KEY set is not pre-filled in GraphiQL either (only a generated key is)', async () => {
    const srv = await startTestServer({ DEV_API_KEY: GIVEN_KEY, DASHBOARD: 'off' });
    try {
      expect(srv.service.devApiKey).toBeUndefined();
      const page = await getWithHost(srv.url, '/graphql', new URL(srv.url).host, { Accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(GIVEN_KEY.slice(7));
    } finally {
      await srv.stop();
    }
  });

  test('behavior: in development a key is generated and handed out to print', async () => {
    const { service, lines } = await startLogged({});
    try {
      expect(service.devApiKey).toMatch(/^svc_sk_[0-9a-f]{64}$/);
      expect(lines.some((l) => String(l.msg).startsWith('no development account'))).toBe(false);
      expect((await fetch(`${service.url}/v1/usage`, { headers: { Authorization: `Bearer ${service.devApiKey}` } })).status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  test('security: the ready line of `npm start` never prints DEV_API_KEY, and in staging prints no key at all', async () => {
    const readyLine = (env: Record<string, string>) =>
      new Promise<string>((done, fail) => {
        const child = spawn(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'src/main.ts'], {
          cwd: resolve(__dirname, '../..'),
          env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'silent', DASHBOARD: 'off', KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY, ...shared(), ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        let ready: string | undefined;
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString('utf8');
          // a whole line: the text up to its newline
          ready ??= err
            .split('\n')
            .slice(0, -1)
            .find((l) => l.startsWith('ready in'));
          if (ready !== undefined) child.kill('SIGTERM');
        });
        child.once('exit', (code) => (ready !== undefined ? done(ready) : fail(new Error(`main exited (${code}) before its ready line: ${err}`))));
      });
    const given = await readyLine({ DEV_API_KEY: GIVEN_KEY });
    expect(given).not.toContain(GIVEN_KEY.slice(7));
    expect(given).toContain('dev API key: DEV_API_KEY (not printed)');
    expect(await readyLine({ SERVICE_ENV: 'staging' })).not.toContain('svc_sk_');
  }, 120_000);
});

describe('pages to allowed hosts only (DNS rebinding)', () => {
  let dev: TestServer;
  beforeAll(async () => {
    dev = await startTestServer();
  });
  afterAll(() => dev?.stop());

  test('security: GraphiQL for a Host that is not allowed is 403 FORBIDDEN (reason host), without the development key', async () => {
    const key = dev.service.devApiKey!;
    expect(key).toMatch(/^svc_sk_/);
    const rebound = await getWithHost(dev.url, '/graphql', 'rebind.attacker.example', { Accept: 'text/html' });
    expect(rebound.status).toBe(403);
    expect(rebound.contentType).toContain('application/json');
    expect(JSON.parse(rebound.text)).toMatchObject({ error: 'FORBIDDEN', details: { reason: 'host', host: 'rebind.attacker.example' } });
    expect(rebound.text).not.toContain(key);
    const port = new URL(dev.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost']) {
      const ok = await getWithHost(dev.url, '/graphql', host, { Accept: 'text/html' });
      expect({ host, status: ok.status, holdsKey: ok.text.includes(key) }).toEqual({ host, status: 200, holdsKey: true });
    }
    // an API request (not the page) is not a page: answered as always, whatever the Host
    const api = await getWithHost(dev.url, '/graphql?query=%7B__typename%7D', 'rebind.attacker.example', {
      Accept: 'application/json',
      Authorization: `Bearer ${key}`,
    });
    expect(api.status).toBe(200);
  });

  test.each(['/dashboard/', '/dashboard/login', '/oidc/.well-known/openid-configuration'])(
    'security: %s for a Host that is not allowed is 403; for 127.0.0.1 it is served',
    async (path) => {
      const rebound = await getWithHost(dev.url, path, 'rebind.attacker.example:80');
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.text)).toMatchObject({ error: 'FORBIDDEN', details: { reason: 'host' } });
      const ok = await getWithHost(dev.url, path, new URL(dev.url).host);
      expect(ok.status).not.toBe(403);
    },
  );

  test('behavior: /docs holds nothing of this server and is served to any Host', async () => {
    expect((await getWithHost(dev.url, '/docs', 'api.example.com')).status).toBe(200);
  });

  test('behavior: ALLOWED_HOSTS replaces the defaults; PUBLIC_URL adds its host', async () => {
    const custom = await startTestServer({ ALLOWED_HOSTS: 'wallets.internal', DASHBOARD: 'off' });
    const withPublic = await startTestServer({ PUBLIC_URL: 'https://wallets.example.com', DASHBOARD: 'off' });
    try {
      const page = (srv: TestServer, host: string) => getWithHost(srv.url, '/graphql', host, { Accept: 'text/html' }).then((r) => r.status);
      expect(await page(custom, 'wallets.internal:1234')).toBe(200);
      expect(await page(custom, new URL(custom.url).host)).toBe(403);
      expect(await page(withPublic, 'wallets.example.com')).toBe(200);
      expect(await page(withPublic, 'localhost:3000')).toBe(200);
      expect(await page(withPublic, 'other.example.com')).toBe(403);
    } finally {
      await Promise.all([custom.stop(), withPublic.stop()]);
    }
  });
});

describe('the development sign-in', () => {
  test('security: off in staging unless DEV_SIGNIN=true (no /oidc provider; /dashboard/login says sign-in is not configured)', async () => {
    const [off, on] = await Promise.all([startTestServer({ SERVICE_ENV: 'staging' }), startTestServer({ SERVICE_ENV: 'staging', DEV_SIGNIN: 'true' })]);
    try {
      expect((await fetch(`${off.url}/oidc/.well-known/openid-configuration`)).status).toBe(404);
      expect((await fetch(`${off.url}/dashboard/login`, { redirect: 'manual' })).status).toBe(503);
      expect((await fetch(`${on.url}/oidc/.well-known/openid-configuration`)).status).toBe(200);
    } finally {
      await Promise.all([off.stop(), on.stop()]);
    }
  });
});

describe('CORS preflights', () => {
  test.each([[{}], [{ CORS_ORIGINS: 'https://app.example.com' }]])(
    'behavior: with %j a preflight is 204 on /graphql, /v1 and /admin alike, before any authentication',
    async (env) => {
      const srv = await startTestServer({ DASHBOARD: 'off', ...env });
      try {
        for (const path of ['/graphql', '/v1/wallets', '/admin/accounts']) {
          const r = await fetch(srv.url + path, {
            method: 'OPTIONS',
            headers: {
              Origin: 'https://app.example.com',
              'Access-Control-Request-Method': 'POST',
              'Access-Control-Request-Headers': 'authorization,content-type',
            },
          });
          expect({ path, status: r.status, allowOrigin: r.headers.get('access-control-allow-origin') }).toEqual({
            path,
            status: 204,
            allowOrigin: 'CORS_ORIGINS' in env ? 'https://app.example.com' : null,
          });
        }
      } finally {
        await srv.stop();
      }
    },
  );
});
