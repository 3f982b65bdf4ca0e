import fc from 'fast-check';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

/**
 * Property-based fuzzing with fast-check, seeded
 * and bounded so `npm test` stays deterministic (FUZZ_RUNS and FUZZ_SEED to
 * go further): every REST route gets generated path parameters, query
 * strings and JSON bodies (wrong types, huge and tiny numbers, `__proto__`
 * keys, deep nesting, unicode, oversize strings), GraphQL gets generated
 * variables for every root field, and the properties hold: never a 5xx,
 * always the JSON error object (or GraphQL errors with `extensions.code`),
 * and a refused write changes nothing.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let srv: TestServer;
let key: string;
let accountId: string;
beforeAll(async () => {
  srv = await startTestServer();
  const acct = await srv.admin.createAccount({ plan: 'enterprise' });
  key = acct.key;
  accountId = acct.accountId;
}, 60_000);
afterAll(() => srv?.stop());

/** Hostile JSON values: every JSON type, extreme numbers, prototype keys, unicode, nesting. */
const hostile: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -0,
      1e308,
      -1e308,
      5e-324,
      2 ** 53 + 1,
      Number.MAX_SAFE_INTEGER,
      '',
      ' ',
      '0',
      '-1',
      '1e999',
      'NaN',
      '__proto__',
      'constructor',
    ),
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ minLength: 2000, maxLength: 5000 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'walletId', 'userId', 'amount', 'action', 'chain', 'asset', 'metadata', 'email'),
        fc.string({ maxLength: 10 }),
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

/** A body shaped like the real ones, with any field made hostile. */
const shapedBody = fc.record(
  {
    userId: hostile,
    walletId: hostile,
    action: fc.oneof(fc.constantFrom('lend', 'withdraw', 'bridge', 'LEND', ''), hostile),
    amount: hostile,
    asset: fc.oneof(fc.constantFrom('USDC', 'WETH', 'usdc'), hostile),
    chain: fc.oneof(fc.constantFrom('base-sepolia', 'base', 'tron'), hostile),
    fromChain: hostile,
    toChain: hostile,
    email: hostile,
    metadata: hostile,
  },
  { requiredKeys: [] },
);

const param = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('..', '%00', '%ff', 'a'.repeat(600), '__proto__', 'svc_wallet_00000000000000000000000000000000'),
);

function expectErrorShape(status: number, text: string, label: string): void {
  expect({ label, status: status >= 500 ? status : 'not 5xx' }).toEqual({ label, status: 'not 5xx' });
  if (status >= 400) {
    const body = JSON.parse(text);
    expect({ label, error: typeof body.error, message: typeof body.message, details: typeof body.details }).toEqual({
      label,
      error: 'string',
      message: 'string',
      details: 'object',
    });
  }
}

test('property: every /v1 route with generated params, queries and bodies answers without a 5xx, errors in the JSON error shape', async () => {
  const routes = srv.service.routes.filter((r) => r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json');
  expect(routes.length).toBeGreaterThan(5);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...routes),
      param,
      fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
      fc.oneof(shapedBody, hostile),
      async (route, p, query, body) => {
        const path = route.path.replace(/:[A-Za-z]+/g, encodeURIComponent(p));
        const qs = new URLSearchParams(query).toString();
        const res = await fetch(`${srv.url}${path}${qs ? `?${qs}` : ''}`, {
          method: route.method,
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify(body),
        });
        expectErrorShape(res.status, await res.text(), `${route.method} ${path}?${qs}`);
      },
    ),
    { numRuns: RUNS * routes.length, seed: SEED },
  );
});

test('property: refused wallet and intent writes change nothing (wallet count and credits stay where they were)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(shapedBody, hostile), fc.constantFrom('/v1/wallets', '/v1/intents', '/v1/demo/fund'), async (body, path) => {
      const before = await srv.admin.usage(accountId);
      const res = await fetch(srv.url + path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      expectErrorShape(res.status, text, `POST ${path}`);
      if (res.status >= 400) {
        const after = await srv.admin.usage(accountId);
        expect({ wallets: after.wallets.count, credits: after.credits.used }).toEqual({ wallets: before.wallets.count, credits: before.credits.used });
      }
    }),
    { numRuns: RUNS * 3, seed: SEED },
  );
});

test('property: every GraphQL root field with generated variables answers errors with extensions.code, never a 5xx or a bare error', async () => {
  const operations = [
    'query($u: String!) { wallet(userId: $u) { id } }',
    'query($id: ID!) { walletById(id: $id) { id } }',
    'query($w: ID!) { balances(walletId: $w) { totalValueUsd } }',
    'query($a: TokenAsset, $c: Chain) { yields(asset: $a, chain: $c) { best { apy } } }',
    'query($id: ID!) { intent(id: $id) { id } }',
    'query($w: ID!, $f: Int, $a: String) { intents(walletId: $w, first: $f, after: $a) { edges { cursor } } }',
    'mutation($i: CreateWalletInput!) { createWallet(input: $i) { id } }',
    'mutation($i: CreateIntentInput!) { createIntent(input: $i) { id } }',
    'mutation($w: ID!) { fundDemoWallet(walletId: $w) { txHash } }',
  ];
  const variables = fc.dictionary(fc.constantFrom('u', 'id', 'w', 'a', 'c', 'f', 'i'), fc.oneof(shapedBody, hostile), { maxKeys: 4 });
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...operations), variables, async (query, vars) => {
      const r = await srv.gql(query, vars as Record<string, unknown>, key);
      expect(r.status).toBeLessThan(500);
      for (const e of (r.body?.errors as { extensions?: { code?: unknown } }[] | undefined) ?? []) expect(typeof e.extensions?.code).toBe('string');
    }),
    { numRuns: RUNS * operations.length, seed: SEED },
  );
});

test('property: the admin API with generated bodies never answers 5xx', async () => {
  const admin = ['/admin/accounts', '/admin/sandbox/mint', '/admin/sandbox/rates', '/admin/sandbox/faults'];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...admin), fc.oneof(shapedBody, hostile), async (path, body) => {
      // faults would really be injected: only malformed ones are sent (a valid fault would stall or break the shared devnets)
      const payload = path === '/admin/sandbox/faults' ? { ...(typeof body === 'object' && body ? body : {}), kind: 'not-a-kind' } : body;
      const res = await fetch(srv.url + path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expectErrorShape(res.status, await res.text(), `POST ${path}`);
    }),
    { numRuns: RUNS * 2, seed: SEED },
  );
});

test('property: raw bytes as a body (invalid UTF-8, truncated JSON, binary) never answer 5xx: REST gives the JSON error object, GraphQL errors with a code', async () => {
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.uint8Array({ maxLength: 40 }).map((b) => Uint8Array.from([...Buffer.from('{"userId":"'), ...b, ...Buffer.from('"}')])),
    fc.uint8Array({ maxLength: 40 }).map((b) => Uint8Array.from([...Buffer.from('{"query":"{ wallet(userId: \\"'), ...b, ...Buffer.from('\\") { id } }"}')])),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('/v1/wallets', '/v1/intents', '/v1/demo/fund', '/graphql'), bytes, async (path, body) => {
      const res = await fetch(srv.url + path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: Buffer.from(body),
      });
      const text = await res.text();
      expect(res.status).toBeLessThan(500);
      if (path === '/graphql') {
        for (const e of (JSON.parse(text).errors as { extensions?: { code?: unknown } }[] | undefined) ?? []) expect(typeof e.extensions?.code).toBe('string');
      } else {
        expectErrorShape(res.status, text, `POST ${path} (raw bytes)`);
      }
    }),
    { numRuns: RUNS * 4, seed: SEED },
  );
});
