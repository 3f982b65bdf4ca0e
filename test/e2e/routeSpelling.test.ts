import { API_REFERENCE_ASSETS } from '../../src/rest/routes/apiReference';
import { PAYABLE_OPERATIONS, type Operation } from '../../src/domain/plans';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';
import type { RouteInfo } from '../../src/http/router';

/**
 * Walks every REST route the routers registered (read from the routers, not
 * a list kept here) × spellings × credentials, and `/graphql` × methods ×
 * Accept × parameter encodings, in development and production. Without valid
 * credentials nothing reaches a handler (only 401, 403, 404 or 405), and
 * nothing answers 5xx.
 */
let dev: TestServer;
let prod: TestServer;
let validKey: string;
let validKeyProd: string;

/** The routes anyone may read: health, metrics and the API documents. Any other unguarded route fails the walk. */
const PUBLIC = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'GET /docs',
  'GET /docs/assets/init.js',
  ...API_REFERENCE_ASSETS.map((a) => `GET /docs/assets/${a}`),
  'GET /v1/openapi.json',
]);

/**
 * The dashboard's routes are public too (sign-in, sign-out, the app's pages),
 * with the answer each gives a request without a session: sign-in redirects
 * to the provider, a callback without a sign-in in progress is refused,
 * sign-out of nothing is fine; the app's pages answer 200 once it is built
 * (503 before), and an asset name that is not one is 404.
 */
const DASHBOARD: Record<string, number[]> = {
  'GET /dashboard/login': [302],
  'GET /dashboard': [302],
  'GET /dashboard/auth/callback': [400],
  'POST /dashboard/logout': [204],
  'GET /dashboard/assets/:file': [404, 503],
};
const dashboardAnswers = (route: string): number[] => DASHBOARD[route] ?? (route.startsWith('GET /dashboard') ? [200, 503] : []);

beforeAll(async () => {
  [dev, prod] = await Promise.all([startTestServer(), startTestServer({ NODE_ENV: 'production' })]);
  validKey = (await dev.admin.createAccount({ plan: 'enterprise' })).key;
  validKeyProd = (await prod.admin.createAccount({ plan: 'enterprise' })).key;
});
afterAll(async () => {
  await Promise.all([dev?.stop(), prod?.stop()]);
});

/** A concrete path for a route pattern: parameters filled with a harmless value. */
const concrete = (pattern: string) => pattern.replace(/:(\w+)/g, 'x');

/** The ways to spell a path that are not the path: case, trailing and double slashes, percent-encoded letters. */
function spellings(path: string): { how: string; path: string }[] {
  const segments = path.split('/');
  const firstLetter = path.search(/[a-z]/);
  const encoded = path.slice(0, firstLetter) + '%' + path.charCodeAt(firstLetter).toString(16) + path.slice(firstLetter + 1);
  return [
    { how: 'upper case', path: path.toUpperCase() },
    { how: 'mixed case', path: segments.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('/') },
    { how: 'trailing slash', path: path + '/' },
    { how: 'double slash', path: '/' + path },
    { how: 'inner double slash', path: path.replace(/\/(?=[^/]*$)/, '//') },
    { how: 'percent-encoded letter', path: encoded },
  ].filter((s) => s.path !== path);
}

type Creds = 'none' | 'wrong' | 'valid';

function headersFor(route: RouteInfo, creds: Creds): Record<string, string> {
  if (creds === 'none') return {};
  const admin = route.path.startsWith('/admin');
  if (creds === 'wrong') return { Authorization: `Bearer ${admin ? 'not-the-admin-token-0123456789' : 'svc_sk_' + 'f'.repeat(64)}` };
  return { Authorization: `Bearer ${admin ? ADMIN_TOKEN : validKey}` };
}

async function call(srv: TestServer, method: string, path: string, headers: Record<string, string>) {
  const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
  const res = await fetch(srv.url + path, {
    method,
    headers: { ...headers, ...(withBody ? { 'Content-Type': 'application/json' } : {}) },
    body: withBody ? '{}' : undefined,
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() };
}

test('behavior: the routers list the API routes, and every route outside the public set is guarded', () => {
  const routes = dev.service.routes;
  const names = routes.map((r) => `${r.method} ${r.path}`);
  for (const r of [
    'POST /v1/wallets',
    'GET /v1/wallets/:userId',
    'GET /v1/balances/:walletId',
    'GET /v1/yields',
    'POST /v1/intents',
    'POST /admin/accounts',
    'DELETE /admin/keys/:keyId',
  ]) {
    expect(names).toContain(r);
  }
  const unguarded = routes.filter((r) => !r.guarded).map((r) => `${r.method} ${r.path}`);
  expect(unguarded.filter((r) => !PUBLIC.has(r) && dashboardAnswers(r).length === 0)).toEqual([]);
});

test('error: every guarded route × spelling × credentials: without valid credentials only 401/403/404/405 (402 PAYMENT_REQUIRED on the four payable reads as written, no credentials at all); never 5xx', async () => {
  const failures: string[] = [];
  for (const route of dev.service.routes.filter((r) => r.guarded)) {
    const path = concrete(route.path);
    const variants = [{ how: 'as written', path }, ...spellings(path)];
    for (const v of variants) {
      for (const creds of ['none', 'wrong', 'valid'] as const) {
        const a = await call(dev, route.method, v.path, headersFor(route, creds));
        const label = `${route.method} ${v.path} (${v.how}, ${creds} credentials) → ${a.status} ${a.text.slice(0, 120)}`;
        // docs/api-guide.md, "Paying per request": a payable read asked with no credentials at all offers payment; no handler ran.
        const offersPayment = v.how === 'as written' && creds === 'none' && PAYABLE_OPERATIONS.has(route.name as Operation);
        if (a.status >= 500) failures.push(label);
        else if (offersPayment) {
          if (a.status !== 402 || !a.text.includes('"error":"PAYMENT_REQUIRED"')) failures.push(label);
        } else if (creds !== 'valid' && ![401, 403, 404, 405].includes(a.status)) failures.push(label);
        // Another spelling is another path: it reaches no handler even with valid credentials.
        else if (v.how !== 'as written' && ![401, 403, 404, 405].includes(a.status)) failures.push(label);
      }
    }
  }
  expect(failures).toEqual([]);
});

test('error: public routes answer, and their other spellings reach no handler (404, or 401 under /v1)', async () => {
  const registered = new Set(dev.service.routes.map((r) => `${r.method} ${r.path}`));
  for (const route of dev.service.routes.filter((r) => !r.guarded)) {
    const name = `${route.method} ${route.path}`;
    const status = (await call(dev, route.method, concrete(route.path), {})).status;
    expect({ name, status: dashboardAnswers(name).includes(status) ? 'as expected' : status }).toEqual({
      name,
      status: PUBLIC.has(name) ? 200 : 'as expected',
    });
    // `/dashboard` + '/' is a route of its own, not another spelling of one.
    for (const v of spellings(route.path).filter((v) => !registered.has(`${route.method} ${v.path}`))) {
      const a = await call(dev, route.method, v.path, {});
      expect({ path: v.path, status: a.status === 401 && v.path.startsWith('/v1/') ? 404 : a.status }).toEqual({ path: v.path, status: 404 });
    }
  }
});

describe('/graphql walk', () => {
  const ACCEPTS = [
    undefined,
    'application/json',
    'application/graphql-response+json',
    'text/event-stream',
    'multipart/mixed',
    'text/html',
    'text/html, application/json',
    '*/*',
  ];
  const QUERY_PARAMS = ['query', '%71uery', 'q%75ery', 'QUERY', 'query%00'];
  const DOC = encodeURIComponent('{ __typename yields { best { apy } } }');

  for (const mode of ['development', 'production'] as const) {
    test(`error: ${mode}: GET and POST × Accept × encoded parameter names without a valid key execute nothing`, async () => {
      const srv = mode === 'production' ? prod : dev;
      const failures: string[] = [];
      for (const creds of ['none', 'wrong'] as const) {
        const auth: Record<string, string> = creds === 'wrong' ? { Authorization: `Bearer svc_sk_${'e'.repeat(64)}` } : {};
        for (const accept of ACCEPTS) {
          const headers = { ...auth, ...(accept ? { Accept: accept } : {}) };
          for (const name of QUERY_PARAMS) {
            const res = await fetch(`${srv.url}/graphql?${name}=${DOC}`, { headers });
            const text = await res.text();
            const graphiql = mode === 'development' && (accept ?? '').includes('text/html');
            const ok = graphiql ? res.status === 200 && (res.headers.get('content-type') ?? '').includes('text/html') : res.status === 401;
            // GraphiQL's page embeds a default query and its bundle: only an execution result would be a leak.
            const executed = graphiql ? text.includes('{"data"') : text.includes('"__typename"') || text.includes('"yields"');
            if (!ok || executed) failures.push(`GET ${name} accept=${accept} ${creds} → ${res.status} ${text.slice(0, 100)}`);
          }
          const post = await fetch(`${srv.url}/graphql`, {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: JSON.stringify({ query: '{ __typename yields { best { apy } } }' }),
          });
          const text = await post.text();
          if (post.status !== 401 || text.includes('"__typename"')) failures.push(`POST accept=${accept} ${creds} → ${post.status} ${text.slice(0, 100)}`);
        }
      }
      expect(failures).toEqual([]);
    });

    test(`behavior: ${mode}: the same walk with a valid key never answers 5xx; other spellings of /graphql are 404`, async () => {
      const srv = mode === 'production' ? prod : dev;
      const key = mode === 'production' ? validKeyProd : validKey;
      const failures: string[] = [];
      for (const accept of ACCEPTS) {
        const headers = { Authorization: `Bearer ${key}`, ...(accept ? { Accept: accept } : {}) };
        for (const name of QUERY_PARAMS) {
          const res = await fetch(`${srv.url}/graphql?${name}=${DOC}`, { headers });
          await res.text().catch(() => '');
          if (res.status >= 500) failures.push(`GET ${name} accept=${accept} → ${res.status}`);
        }
      }
      for (const path of ['/GraphQL', '/GRAPHQL', '/graphql/', '//graphql', '/%67raphql']) {
        const res = await fetch(`${srv.url}${path}?query=${DOC}`, { headers: { Accept: 'application/json' } });
        if (res.status !== 404) failures.push(`${path} → ${res.status}`);
      }
      expect(failures).toEqual([]);
    });
  }
});
