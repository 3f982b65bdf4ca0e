import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { fitInRateWindow, startTestServer, seedCorruptAccountKey, type TestAccount, type TestServer } from '../helpers/server';
import { creditMonth } from '../../src/app/accounts/credits';
import { recordGasSpent } from '../../src/app/budgets/gasBudget';
import type { StandingDecision } from '../../src/domain/standingIntent';

/**
 * The OpenAPI document against the running service, judged by a tool
 * nobody on the project wrote: Stoplight Prism as a validating proxy in
 * front of `/v1` (the document's paths are relative to its server `/v1`, so
 * `<prism>/wallets` goes to `<service>/v1/wallets`).
 *
 * Two proxies on the same document:
 * - `strict` (`--errors`): a request or answer that breaks the document is
 *   turned into a Prism error (application/problem+json, type
 *   https://stoplight.io/prism/errors#…; a forwarded answer with a warning
 *   carries `sl-violations`). Valid requests go through it: they must come
 *   back as the service sent them, with no violation.
 * - `observe` (no `--errors`): forwards everything and lists what it found in
 *   `sl-violations`. Invalid requests go through it (and through `strict`):
 *   the service's answer must not break the document, and where the
 *   document can express the rule broken, Prism must have seen the request
 *   violate it.
 * A third proxy on a deliberately broken copy of the document (a required
 *   property nobody sends) shows that answers really are checked.
 *
 * Methods a path does not take never reach the service through Prism (it
 * answers 405 itself): those answers are checked directly against the
 * document's Error schema.
 */

const PRISM = require.resolve('@stoplight/prism-cli/dist/index.js');

interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  /** What Prism reported: sl-violations, or the validation list of its own error answer. */
  violations: Violation[];
  /** Prism answered itself (the request never reached the service, or the answer was replaced). */
  byPrism?: string;
}

interface Proxy {
  url: string;
  child: ChildProcess;
  log: string[];
}

let srv: TestServer;
let dir: string;
let doc: any;
let strict: Proxy;
let observe: Proxy;
let canary: Proxy;
const failures: string[] = [];
const seen = new Map<string, Set<number>>();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startPrism(file: string, errors: boolean): Promise<Proxy> {
  const port = await freePort();
  const args = [PRISM, 'proxy', file, `${srv.url}/v1`, ...(errors ? ['--errors'] : []), '--port', String(port), '--host', '127.0.0.1'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString().split('\n'));
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stderr!.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start in 30 s:\n${log.join('\n')}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`Prism exited (${code}):\n${log.join('\n')}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (chunk.toString().includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `http://127.0.0.1:${port}`, child, log };
}

interface Call {
  method?: string;
  key?: string;
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  raw?: string;
  headers?: Record<string, string>;
}

async function call(proxy: Proxy, path: string, c: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  let body: string | undefined = c.raw;
  if (c.body !== undefined) {
    body = JSON.stringify(c.body);
    headers['Content-Type'] ??= 'application/json';
  }
  if (c.key !== undefined) headers.Authorization = `Bearer ${c.key}`;
  let res: Response;
  try {
    res = await fetch(proxy.url + path, { method: c.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw new Error(`${c.method ?? (body === undefined ? 'GET' : 'POST')} ${proxy.url}${path}: ${(e as Error).message}\n${proxy.log.slice(-20).join('\n')}`, {
      cause: e,
    });
  }
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  const violations: Violation[] = JSON.parse(res.headers.get('sl-violations') ?? '[]');
  const prismType =
    typeof parsed?.type === 'string' && parsed.type.startsWith('https://stoplight.io/prism/errors#') ? (parsed.type as string).split('#')[1] : undefined;
  // Prism's own answer lists what it found, located relative to the request (body, query, …) or not at all
  if (prismType && Array.isArray(parsed.validation)) {
    for (const v of parsed.validation as Violation[]) {
      const location = v.location ?? [];
      violations.push({
        ...v,
        location: location[0] === 'request' || location[0] === 'response' ? location : [prismType === 'VIOLATIONS' ? 'response' : 'request', ...location],
      });
    }
  }
  if (prismType === 'UNAUTHORIZED') violations.push({ location: ['request'], severity: 'Error', message: parsed.title });
  return { status: res.status, headers: res.headers, body: parsed, violations, byPrism: prismType };
}

const describeAnswer = (a: Answer) =>
  `${a.status}${a.byPrism ? ` (Prism ${a.byPrism})` : ''} ${JSON.stringify(a.body)?.slice(0, 300)} violations ${JSON.stringify(a.violations)}`;

function note(label: string, a: Answer): void {
  if (a.byPrism) return;
  const op = label.split(' ').slice(0, 2).join(' ');
  seen.set(op, (seen.get(op) ?? new Set()).add(a.status));
}

/**
 * A request the document allows: through the strict proxy, answered by the
 * service with `status` (and `error`), and no violation either way.
 */
async function valid(label: string, path: string, c: Call, status: number, error?: string): Promise<Answer> {
  const a = await call(strict, path, c);
  note(label, a);
  const problems: string[] = [];
  if (a.byPrism || a.violations.length > 0) problems.push('violations');
  if (a.status !== status) problems.push(`status ${a.status}, expected ${status}`);
  if (error !== undefined && a.body?.error !== error) problems.push(`error ${a.body?.error}, expected ${error}`);
  if (problems.length > 0) failures.push(`${label} [valid request]: ${problems.join(', ')}: ${describeAnswer(a)}`);
  return a;
}

/**
 * A request the service refuses: through the observing proxy, the service's
 * answer (`status`, `error`) must not break the document; when
 * `documentRefuses`, Prism must see the request break it (the rule is in
 * the document), else the request must pass as valid. Then through the
 * strict proxy: refused by Prism (documentRefuses) or forwarded with no
 * violation.
 */
async function invalid(label: string, path: string, c: Call, status: number, error: string, documentRefuses: boolean): Promise<Answer> {
  const a = await call(observe, path, c);
  note(label, a);
  const problems: string[] = [];
  const response = a.violations.filter((v) => v.location[0] === 'response');
  const request = a.violations.filter((v) => v.location[0] === 'request');
  if (a.byPrism) problems.push('the observing proxy answered itself');
  if (response.length > 0) problems.push('answer violates the document');
  if (a.status !== status) problems.push(`status ${a.status}, expected ${status}`);
  if (a.body?.error !== error) problems.push(`error ${a.body?.error}, expected ${error}`);
  if (documentRefuses && request.length === 0) problems.push('the document does not refuse this request');
  if (!documentRefuses && request.length > 0) problems.push('the document refuses this request');
  const s = await call(strict, path, c);
  const refusedByPrism =
    s.byPrism !== undefined && s.byPrism !== 'VIOLATIONS' && s.violations.length > 0 && s.violations.every((v) => v.location[0] === 'request');
  if (documentRefuses ? !refusedByPrism : s.byPrism !== undefined || s.violations.length > 0) {
    problems.push(`strict proxy: ${describeAnswer(s)}`);
  }
  if (problems.length > 0) failures.push(`${label} [invalid request]: ${problems.join(', ')}: ${describeAnswer(a)}`);
  return a;
}

/** A check of the conformance run that fails it at the end, with every other finding, rather than stopping it. */
function check(label: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) failures.push(`${label}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });

/** JSON pointer escaping. */
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * What Prism would check, done here for answers Prism cannot carry: the
 * service's answer to `method path` checked against the document's response
 * for (`operation`, status): the status is documented, the body validates,
 * and every required header is present with a valid value.
 */
async function direct(label: string, method: string, path: string, operation: [string, string] | null, c: Call, status: number, error: string): Promise<void> {
  const a = await srv.rest(method, `/v1${path}`, { key: c.key, body: c.raw ?? c.body, headers: c.headers });
  const problems: string[] = [];
  if (a.status !== status) problems.push(`status ${a.status}, expected ${status}`);
  if (a.body?.error !== error) problems.push(`error ${a.body?.error}, expected ${error}`);
  if (operation === null) {
    // no operation answers here: the error body of the document
    const v = ajv.getSchema('doc#/components/schemas/Error')!;
    if (!v(a.body)) problems.push(`body: ${ajv.errorsText(v.errors)}`);
  } else {
    const [opPath, opMethod] = operation;
    const response = doc.paths[opPath]?.[opMethod]?.responses?.[String(a.status)];
    if (!response) problems.push(`status ${a.status} not documented for ${opMethod.toUpperCase()} ${opPath}`);
    else {
      const v = ajv.getSchema(`doc#/${pointer('paths', opPath, opMethod, 'responses', String(a.status), 'content', 'application/json', 'schema')}`)!;
      if (!v(a.body)) problems.push(`body: ${ajv.errorsText(v.errors)}`);
      for (const [name, ref] of Object.entries(response.headers ?? {}) as [string, { $ref: string }][]) {
        const header = doc.components.headers[ref.$ref.split('/').pop()!];
        const value = a.headers.get(name);
        if (value === null) {
          if (header.required) problems.push(`header ${name} missing`);
          continue;
        }
        const typed = header.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
        if (!ajv.validate(header.schema, typed)) problems.push(`header ${name}: ${value} ${ajv.errorsText()}`);
      }
    }
  }
  if (problems.length > 0) failures.push(`${label} [checked directly]: ${problems.join(', ')}: ${a.status} ${a.text.slice(0, 300)}`);
}

beforeAll(async () => {
  srv = await startTestServer({ BODY_LIMIT_BYTES: '4096' });
  const res = await fetch(`${srv.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
  dir = mkdtempSync(join(tmpdir(), 'openapi-conformance-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  // the canary: Wallet, Policy and Error each require a property the service never sends
  const broken = JSON.parse(JSON.stringify(doc));
  for (const name of ['Wallet', 'Policy', 'Error']) broken.components.schemas[name].required = [...(broken.components.schemas[name].required ?? []), 'canary'];
  writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken));
  [strict, observe, canary] = await Promise.all([
    startPrism(join(dir, 'openapi.json'), true),
    startPrism(join(dir, 'openapi.json'), false),
    startPrism(join(dir, 'broken.json'), false),
  ]);
  ajv.addSchema({ ...doc, $id: 'doc' });
}, 60_000);

afterAll(async () => {
  for (const p of [strict, observe, canary]) p?.child.kill();
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('behavior: the document lists exactly the /v1 routes the service serves, each with its operationId', () => {
  const served = srv.service.routes
    .filter((r) => r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json')
    .map((r) => `${r.method} ${r.path.slice('/v1'.length).replace(/:(\w+)/g, '{$1}')}`);
  const documented = Object.entries(doc.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
  // a route missing here needs its entry in OPERATIONS (src/rest/openapi/document.ts) and its answer's schema in src/rest/openapi/schemas.ts
  expect({ undocumented: served.filter((r) => !documented.includes(r)), notServed: documented.filter((r) => !served.includes(r)) }).toEqual({
    undocumented: [],
    notServed: [],
  });
  for (const r of srv.service.routes.filter((x) => x.name && x.path.startsWith('/v1/'))) {
    const op = doc.paths[r.path.slice('/v1'.length).replace(/:(\w+)/g, '{$1}')][r.method.toLowerCase()];
    expect(op.operationId).toBe(r.name);
  }
});

test('behavior: the canary — an answer breaking the document is reported by Prism', async () => {
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'canary' } });
  const ok = await call(canary, '/wallets/canary', { key: acct.key });
  expect(ok.status).toBe(200);
  // GET /wallets/{userId} answers Wallet or PaidWallet (anyOf): the owner's answer, failing Wallet, fails PaidWallet too (it has metadata), and so the anyOf
  const messages = ok.violations.map((v) => `${v.location.join('.')}: ${v.message}`);
  expect(messages).toContain("response.body: Response body must have required property 'canary'");
  expect(messages.filter((m) => !/required property 'canary'|found 'metadata'|match a schema in anyOf/.test(m))).toEqual([]);
  const missing = await call(canary, '/wallets/nobody', { key: acct.key });
  expect(missing.status).toBe(404);
  expect(missing.violations.some((v) => v.location[0] === 'response' && /canary/.test(v.message))).toBe(true);
  const policy = await call(canary, '/policies', { key: acct.key, body: { name: 'canary', rules: { actions: ['lend'] } } });
  expect(policy.status).toBe(201);
  const updated = await call(canary, `/policies/${policy.body?.id}`, { key: acct.key, method: 'PUT', body: { name: 'canary', rules: { maxUsdPerDay: 5 } } });
  expect(updated.status).toBe(200);
  for (const a of [policy, updated])
    expect(a.violations.map((v) => `${v.location.join('.')}: ${v.message}`)).toEqual(["response.body: Response body must have required property 'canary'"]);
});

test('conformance: valid and invalid requests for every route, through Prism: 0 violations', async () => {
  const started = Date.now();
  const pro: TestAccount = await srv.admin.createAccount({ plan: 'pro' });
  const free: TestAccount = await srv.admin.createAccount({ plan: 'free' });
  const key = pro.key;

  // ---- wallets ----
  const created = await valid(
    'POST /wallets',
    '/wallets',
    { key, body: { userId: 'alice', email: 'alice@example.com', metadata: { tier: 'gold', tags: ['a'] } } },
    201,
  );
  const walletId: string = created.body?.id;
  await valid('POST /wallets tron', '/wallets', { key, body: { userId: 'tron-user', chainType: 'tron' } }, 201);
  const replayBody = { userId: 'bob' };
  await valid('POST /wallets idempotent', '/wallets', { key, body: replayBody, headers: { 'Idempotency-Key': 'k-bob' } }, 201);
  const replay = await valid('POST /wallets replay', '/wallets', { key, body: replayBody, headers: { 'Idempotency-Key': 'k-bob' } }, 201);
  check('POST /wallets replay: Idempotent-Replayed', replay.headers.get('idempotent-replayed'), 'true');
  await invalid(
    'POST /wallets idempotency conflict',
    '/wallets',
    { key, body: { userId: 'carol' }, headers: { 'Idempotency-Key': 'k-bob' } },
    409,
    'IDEMPOTENCY_CONFLICT',
    false,
  );
  await invalid(
    'POST /wallets bad idempotency key',
    '/wallets',
    { key, body: { userId: 'dave' }, headers: { 'Idempotency-Key': 'x'.repeat(256) } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid('POST /wallets exists', '/wallets', { key, body: { userId: 'alice' } }, 409, 'WALLET_ALREADY_EXISTS', false);
  await invalid('POST /wallets missing userId', '/wallets', { key, body: {} }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /wallets bad userId', '/wallets', { key, body: { userId: 'no spaces' } }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /wallets unknown field', '/wallets', { key, body: { userId: 'erin', color: 'red' } }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /wallets metadata key', '/wallets', { key, body: { userId: 'erin', metadata: { $where: 1 } } }, 400, 'INVALID_REQUEST', true);
  // Prism 5 never answers a request whose JSON body does not parse (stoplightio/prism#2664): checked directly
  await direct(
    'POST /wallets malformed JSON',
    'POST',
    '/wallets',
    ['/wallets', 'post'],
    { key, raw: '{"userId":', headers: { 'Content-Type': 'application/json' } },
    400,
    'INVALID_REQUEST',
  );
  await direct(
    'POST /intents malformed JSON',
    'POST',
    '/intents',
    ['/intents', 'post'],
    { key, raw: '[1,', headers: { 'Content-Type': 'application/json' } },
    400,
    'INVALID_REQUEST',
  );
  await invalid(
    'POST /wallets text/plain',
    '/wallets',
    { key, raw: '{"userId":"frank"}', headers: { 'Content-Type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    true,
  );
  await invalid('POST /wallets oversized', '/wallets', { key, body: { userId: 'gina', metadata: { pad: 'x'.repeat(5000) } } }, 413, 'PAYLOAD_TOO_LARGE', false);
  await invalid('POST /wallets no key', '/wallets', { body: { userId: 'hank' } }, 401, 'UNAUTHORIZED', true);
  await invalid('POST /wallets wrong key', '/wallets', { key: `svc_sk_${'0'.repeat(64)}`, body: { userId: 'hank' } }, 401, 'UNAUTHORIZED', false);
  await invalid('POST /wallets malformed key', '/wallets', { key: 'nope', body: { userId: 'hank' } }, 401, 'UNAUTHORIZED', false);
  const readOnly = await srv.admin.issueKey(pro.accountId, { scopes: ['read'] });
  await invalid('POST /wallets read-only key', '/wallets', { key: readOnly.key, body: { userId: 'ivan' } }, 403, 'FORBIDDEN', false);

  await valid('GET /wallets/{userId}', '/wallets/alice', { key }, 200);
  await valid('GET /wallets/{userId} query ignored', '/wallets/alice?verbose=1', { key }, 200);
  await invalid('GET /wallets/{userId} unknown', '/wallets/nobody', { key }, 404, 'WALLET_NOT_FOUND', false);
  await invalid('GET /wallets/{userId} bad userId', '/wallets/bad%20id', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /wallets/{userId} no credentials', '/wallets/alice', {}, 402, 'PAYMENT_REQUIRED', true);
  await invalid(
    'GET /wallets/{userId} proof without X-Account-Id',
    '/wallets/alice',
    { headers: { 'PAYMENT-SIGNATURE': 'bm90LWEtcHJvb2Y=' } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'GET /wallets/{userId} bad proof',
    '/wallets/alice',
    { headers: { 'PAYMENT-SIGNATURE': 'bm90LWEtcHJvb2Y=', 'X-Account-Id': pro.accountId } },
    402,
    'PAYMENT_INVALID',
    false,
  );

  // ---- demo funding, balances, yields ----
  await valid('POST /demo/fund', '/demo/fund', { key, body: { walletId } }, 202);
  await valid('POST /demo/fund ignored fields', '/demo/fund', { key, body: { walletId, chain: 'base-sepolia', amount: '5' } }, 202);
  const tron = await srv.rest('GET', '/v1/wallets/tron-user', { key });
  await invalid('POST /demo/fund tron wallet', '/demo/fund', { key, body: { walletId: tron.body.id } }, 400, 'INVALID_CHAIN', false);
  await invalid('POST /demo/fund unknown wallet', '/demo/fund', { key, body: { walletId: 'svc_wallet_nope' } }, 404, 'WALLET_NOT_FOUND', false);
  await invalid('POST /demo/fund missing walletId', '/demo/fund', { key, body: {} }, 400, 'INVALID_REQUEST', true);
  const spare = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'spare' } });
  for (let i = 0; i < 10; i++) await srv.rest('POST', '/v1/demo/fund', { key, body: { walletId: spare.body.id } });
  const limited = await invalid(
    'POST /demo/fund funding limit',
    '/demo/fund',
    { key, body: { walletId: spare.body.id } },
    429,
    'FUNDING_LIMIT_EXCEEDED',
    false,
  );
  check('POST /demo/fund funding limit: Retry-After > 0', Number(limited.headers.get('retry-after')) > 0, true);

  await valid('GET /balances/{walletId}', `/balances/${walletId}`, { key }, 200);
  await invalid('GET /balances/{walletId} unknown', '/balances/svc_wallet_nope', { key }, 404, 'WALLET_NOT_FOUND', false);
  await invalid('GET /balances/{walletId} no credentials', `/balances/${walletId}`, {}, 402, 'PAYMENT_REQUIRED', true);

  await valid('GET /yields', '/yields', { key }, 200);
  await valid('GET /yields filtered', '/yields?asset=USDC&chain=base-sepolia', { key }, 200);
  await valid('GET /yields no market', '/yields?asset=DAI&chain=base-sepolia', { key }, 200);
  await valid('GET /yields optimize=netReturn', `/yields?asset=USDC&optimize=netReturn&walletId=${walletId}&amount=0.5&horizonDays=30`, { key }, 200);
  await invalid('GET /yields optimize without amount', `/yields?optimize=netReturn&walletId=${walletId}`, { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /yields walletId without optimize', `/yields?walletId=${walletId}`, { key }, 400, 'INVALID_REQUEST', false);
  await invalid(
    'GET /yields horizonDays out of range',
    `/yields?optimize=netReturn&walletId=${walletId}&amount=1&horizonDays=0`,
    { key },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid('GET /yields optimize unknown wallet', '/yields?optimize=netReturn&walletId=svc_wallet_nope&amount=1', { key }, 404, 'WALLET_NOT_FOUND', false);

  // ---- intent previews (before the intents below commit the wallet's funds) ----
  await valid('POST /intents/preview', '/intents/preview', { key, body: { walletId, action: 'lend', amount: '0.5' } }, 200);
  await valid(
    'POST /intents/preview netReturn',
    '/intents/preview',
    { key, body: { walletId, action: 'lend', amount: '0.5', optimize: 'netReturn', horizonDays: 30 } },
    200,
  );
  await invalid(
    'POST /intents/preview insufficient funds',
    '/intents/preview',
    { key, body: { walletId, action: 'lend', amount: '1000' } },
    422,
    'INSUFFICIENT_FUNDS',
    false,
  );
  await invalid(
    'POST /intents/preview horizonDays without optimize',
    '/intents/preview',
    { key, body: { walletId, action: 'lend', amount: '1', horizonDays: 30 } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /intents/preview optimize on a withdraw',
    '/intents/preview',
    { key, body: { walletId, action: 'withdraw', amount: '1', chain: 'base-sepolia', optimize: 'netReturn' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /intents/preview unknown wallet',
    '/intents/preview',
    { key, body: { walletId: 'svc_wallet_nope', action: 'lend', amount: '1' } },
    404,
    'WALLET_NOT_FOUND',
    false,
  );
  await invalid('GET /yields unknown query parameter', '/yields?sort=apy', { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /yields unknown asset', '/yields?asset=DOGE', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /yields upcoming chain (pro)', '/yields?chain=ethereum', { key }, 400, 'INVALID_CHAIN', false);
  await invalid('GET /yields upcoming chain (free)', '/yields?chain=ethereum', { key: free.key }, 403, 'PLAN_RESTRICTED', false);
  await invalid('GET /yields no credentials', '/yields', {}, 402, 'PAYMENT_REQUIRED', true);
  await valid('GET /yields/history', '/yields/history', { key }, 200);
  await valid(
    'GET /yields/history filtered',
    '/yields/history?chain=base-sepolia&protocol=aave-v3&asset=USDC&from=2026-01-30&to=2026-01-31T00:00:00Z&bucket=1h',
    { key },
    200,
  );
  await invalid('GET /yields/history unknown query parameter', '/yields/history?sort=asc', { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /yields/history bad bucket', '/yields/history?bucket=2m', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /yields/history bad protocol', '/yields/history?protocol=maker', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /yields/history from after to', '/yields/history?from=2026-02-01&to=2026-01-01', { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /yields/history upcoming chain (free)', '/yields/history?chain=ethereum', { key: free.key }, 403, 'PLAN_RESTRICTED', false);
  await invalid('GET /yields/history no key', '/yields/history', {}, 401, 'UNAUTHORIZED', true);

  // ---- intents ----
  const lend = await valid('POST /intents lend', '/intents', { key, body: { walletId, action: 'lend', amount: '0.5', chain: 'arbitrum-sepolia' } }, 201);
  check('POST /intents: Retry-After', lend.headers.get('retry-after'), '5');
  await valid('POST /intents lend number', '/intents', { key, body: { walletId, action: 'lend', amount: 0.25 } }, 201);
  await valid(
    'POST /intents withdraw',
    '/intents',
    { key, body: { walletId, action: 'withdraw', amount: '0.1', asset: 'USDC', chain: 'arbitrum-sepolia' } },
    201,
  );
  await valid(
    'POST /intents bridge',
    '/intents',
    { key, body: { walletId, action: 'bridge', amount: '0.2', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' } },
    201,
  );
  const intentBody = { walletId, action: 'lend', amount: '0.3' };
  await valid('POST /intents idempotent', '/intents', { key, body: intentBody, headers: { 'Idempotency-Key': 'intent-1' } }, 201);
  const replayed = await valid('POST /intents replay', '/intents', { key, body: intentBody, headers: { 'Idempotency-Key': 'intent-1' } }, 201);
  check('POST /intents replay: Idempotent-Replayed', replayed.headers.get('idempotent-replayed'), 'true');
  await invalid('POST /intents withdraw without chain', '/intents', { key, body: { walletId, action: 'withdraw', amount: '1' } }, 400, 'INVALID_REQUEST', true);
  await invalid(
    'POST /intents bridge without toChain',
    '/intents',
    { key, body: { walletId, action: 'bridge', amount: '1', fromChain: 'base-sepolia' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /intents bridge to the same chain',
    '/intents',
    { key, body: { walletId, action: 'bridge', amount: '1', fromChain: 'base-sepolia', toChain: 'base-sepolia' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid('POST /intents too many decimals', '/intents', { key, body: { walletId, action: 'lend', amount: '1.1234567' } }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /intents negative amount', '/intents', { key, body: { walletId, action: 'lend', amount: '-1' } }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /intents exponent', '/intents', { key, body: { walletId, action: 'lend', amount: '1e3' } }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /intents missing amount', '/intents', { key, body: { walletId, action: 'lend' } }, 400, 'INVALID_REQUEST', true);
  await invalid('POST /intents unknown action', '/intents', { key, body: { walletId, action: 'stake', amount: '1' } }, 400, 'INVALID_REQUEST', true);
  await invalid(
    'POST /intents DAI on base',
    '/intents',
    { key, body: { walletId, action: 'lend', amount: '1', asset: 'DAI', chain: 'base-sepolia' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /intents unknown chain',
    '/intents',
    { key, body: { walletId, action: 'lend', amount: '1', chain: 'polygon' } },
    400,
    'INVALID_CHAIN',
    true,
  );
  await invalid(
    'POST /intents main network (free)',
    '/intents',
    { key: free.key, body: { walletId, action: 'lend', amount: '1', chain: 'ethereum' } },
    403,
    'PLAN_RESTRICTED',
    false,
  );
  await invalid(
    'POST /intents unknown wallet',
    '/intents',
    { key, body: { walletId: 'svc_wallet_nope', action: 'lend', amount: '1' } },
    404,
    'WALLET_NOT_FOUND',
    false,
  );
  await invalid('POST /intents tron wallet', '/intents', { key, body: { walletId: tron.body.id, action: 'lend', amount: '1' } }, 400, 'INVALID_CHAIN', false);
  await invalid(
    'POST /intents oversized',
    '/intents',
    { key, body: { walletId, action: 'lend', amount: '1', pad: 'x'.repeat(5000) } },
    413,
    'PAYLOAD_TOO_LARGE',
    true,
  );
  await invalid(
    'POST /intents text/plain',
    '/intents',
    { key, raw: JSON.stringify(intentBody), headers: { 'Content-Type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    true,
  );
  await invalid(
    'POST /intents idempotency conflict',
    '/intents',
    { key, body: { ...intentBody, amount: '0.4' }, headers: { 'Idempotency-Key': 'intent-1' } },
    409,
    'IDEMPOTENCY_CONFLICT',
    false,
  );
  const spender = await srv.admin.createAccount({ plan: 'pro' });
  const spenderWallet = await srv.rest('POST', '/v1/wallets', { key: spender.key, body: { userId: 'spender' } });
  await recordGasSpent(srv.service.deps.store.usage, spender.accountId, 10n ** 24n, new Date());
  const gas = await invalid(
    'POST /intents gas budget spent',
    '/intents',
    { key: spender.key, body: { walletId: spenderWallet.body.id, action: 'lend', amount: '1' } },
    429,
    'GAS_BUDGET_EXCEEDED',
    false,
  );
  check('POST /intents gas budget: Retry-After > 0', Number(gas.headers.get('retry-after')) > 0, true);

  const intentId: string = lend.body?.id;
  await valid('GET /intents/{intentId}', `/intents/${intentId}`, { key }, 200);
  await invalid('GET /intents/{intentId} unknown', '/intents/intent_nope', { key }, 404, 'INTENT_NOT_FOUND', false);
  await invalid('GET /intents/{intentId} other account', `/intents/${intentId}`, { key: free.key }, 404, 'INTENT_NOT_FOUND', false);
  await invalid('GET /intents/{intentId} no credentials', `/intents/${intentId}`, {}, 402, 'PAYMENT_REQUIRED', true);
  await invalid('GET /intents/{intentId} v1 proof', `/intents/${intentId}`, { headers: { 'X-PAYMENT': 'e30=' } }, 402, 'PAYMENT_INVALID', false);

  const toCancel = await srv.rest('POST', '/v1/intents', { key, body: { walletId, action: 'lend', amount: '0.2' } });
  const cancelled = await valid('POST /intents/{intentId}/cancel', `/intents/${toCancel.body.id}/cancel`, { key, method: 'POST' }, 200);
  check('POST /intents/{intentId}/cancel: cancel recorded', typeof cancelled.body?.cancelRequestedAt, 'string');
  await valid('POST /intents/{intentId}/cancel again', `/intents/${toCancel.body.id}/cancel`, { key, method: 'POST' }, 200);
  await invalid('POST /intents/{intentId}/cancel unknown', '/intents/intent_nope/cancel', { key, method: 'POST' }, 404, 'INTENT_NOT_FOUND', false);
  await invalid(
    'POST /intents/{intentId}/cancel read-only key',
    `/intents/${toCancel.body.id}/cancel`,
    { key: readOnly.key, method: 'POST' },
    403,
    'FORBIDDEN',
    false,
  );
  await invalid('POST /intents/{intentId}/cancel no key', `/intents/${toCancel.body.id}/cancel`, { method: 'POST' }, 401, 'UNAUTHORIZED', true);

  const page = await valid('GET /intents', `/intents?walletId=${walletId}&first=2`, { key }, 200);
  check('GET /intents first=2: hasNextPage', page.body?.pageInfo?.hasNextPage, true);
  await valid('GET /intents next page', `/intents?walletId=${walletId}&first=2&after=${page.body?.pageInfo?.endCursor}`, { key }, 200);
  await valid('GET /intents by status', `/intents?walletId=${walletId}&status=completed`, { key }, 200);
  await valid('GET /intents unknown parameter ignored', `/intents?walletId=${walletId}&sort=asc`, { key }, 200);
  await invalid('GET /intents missing walletId', '/intents', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /intents first 0', `/intents?walletId=${walletId}&first=0`, { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /intents bad status', `/intents?walletId=${walletId}&status=done`, { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /intents bad cursor', `/intents?walletId=${walletId}&after=zzz`, { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /intents unknown wallet', '/intents?walletId=svc_wallet_nope', { key }, 404, 'WALLET_NOT_FOUND', false);

  // the intents as they move: planned, executing, completed or failed, each answer checked
  const deadline = Date.now() + 20_000;
  let status = '';
  while (Date.now() < deadline) {
    const a = await valid('GET /intents/{intentId} polling', `/intents/${intentId}`, { key }, 200);
    status = typeof a.body?.status === 'string' ? a.body.status : '';
    if (status === 'completed' || status === 'failed') {
      check(`GET /intents/{intentId} ${status}: no Retry-After`, a.headers.get('retry-after'), null);
      break;
    }
    check(`GET /intents/{intentId} ${status}: Retry-After`, a.headers.get('retry-after'), '5');
    if (!status) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (status === 'completed' || status === 'failed') {
    await invalid('POST /intents/{intentId}/cancel final', `/intents/${intentId}/cancel`, { key, method: 'POST' }, 409, 'INTENT_NOT_CANCELLABLE', false);
  }
  const all = await valid('GET /intents all', `/intents?walletId=${walletId}&first=100`, { key }, 200);
  for (const i of all.body?.intents ?? []) await valid(`GET /intents/{intentId} ${i.action} ${i.status}`, `/intents/${i.id}`, { key }, 200);
  await valid('GET /balances/{walletId} after lending', `/balances/${walletId}`, { key }, 200);

  // ---- the audit log ----
  const events = await valid('GET /audit-events', '/audit-events', { key }, 200);
  check('GET /audit-events: some events', (events.body?.events?.length ?? 0) > 0, true);
  const firstPage = await valid('GET /audit-events filtered', `/audit-events?type=intent.created&walletId=${walletId}&limit=1`, { key }, 200);
  if (firstPage.body?.nextCursor) await valid('GET /audit-events next page', `/audit-events?limit=1&cursor=${firstPage.body.nextCursor}`, { key }, 200);
  await valid('GET /audit-events since', '/audit-events?since=2026-01-31', { key }, 200);
  await invalid('GET /audit-events unknown query parameter', '/audit-events?sort=asc', { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /audit-events limit 0', '/audit-events?limit=0', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /audit-events bad walletId', '/audit-events?walletId=alice', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /audit-events bad type', '/audit-events?type=everything', { key }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /audit-events bad since', '/audit-events?since=yesterday', { key }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /audit-events no key', '/audit-events', {}, 401, 'UNAUTHORIZED', true);

  // ---- spending policies (an account of their own: its account policy governs every wallet it has without one) ----
  const owner = await srv.admin.createAccount({ plan: 'pro' });
  const ok = owner.key;
  const ownerReader = await srv.admin.issueKey(owner.accountId, { scopes: ['read'] });
  const governed: string = (await srv.rest('POST', '/v1/wallets', { key: ok, body: { userId: 'governed' } })).body?.id;
  await srv.rest('POST', '/v1/wallets', { key: ok, body: { userId: 'ungoverned' } });
  const rules = {
    actions: ['lend', 'withdraw'],
    chains: ['arbitrum-sepolia', 'base-sepolia'],
    protocols: ['aave-v3'],
    maxUsdPerIntent: '1',
    maxUsdPerDay: 25.5,
  };
  const small = await valid('POST /policies', '/policies', { key: ok, body: { name: '  Small lends ', rules } }, 201);
  const policyId: string = small.body?.id;
  check(
    'POST /policies: trimmed, wallet scope by default, version 1, amounts as decimal strings',
    [small.body?.name, small.body?.scope, small.body?.version, small.body?.rules],
    ['Small lends', 'wallet', 1, { ...rules, maxUsdPerDay: '25.5' }],
  );
  const unused = await valid(
    'POST /policies one rule',
    '/policies',
    { key: ok, body: { name: 'x'.repeat(64), scope: 'wallet', rules: { maxUsdPerDay: '0.01' } } },
    201,
  );
  const accountPolicy = await valid(
    'POST /policies account scope',
    '/policies',
    { key: ok, body: { name: 'Account default', scope: 'account', rules: { maxUsdPerIntent: 1000 } } },
    201,
  );
  await invalid(
    'POST /policies second account policy',
    '/policies',
    { key: ok, body: { name: 'Another', scope: 'account', rules: { actions: ['lend'] } } },
    409,
    'POLICY_CONFLICT',
    false,
  );
  for (const [what, body] of [
    ['missing name', { rules }],
    ['blank name', { name: '   ', rules }],
    ['name of 65', { name: 'x'.repeat(65), rules }],
    ['missing rules', { name: 'n' }],
    ['no rule', { name: 'n', rules: {} }],
    ['empty list', { name: 'n', rules: { chains: [] } }],
    ['unknown chain', { name: 'n', rules: { chains: ['polygon'] } }],
    ['unknown protocol', { name: 'n', rules: { protocols: ['morpho'] } }],
    ['repeated action', { name: 'n', rules: { actions: ['lend', 'lend'] } }],
    ['unknown rule', { name: 'n', rules: { maxTxPerDay: 3 } }],
    ['three decimals', { name: 'n', rules: { maxUsdPerIntent: '1.234' } }],
    ['zero', { name: 'n', rules: { maxUsdPerIntent: 0 } }],
    ['zero string', { name: 'n', rules: { maxUsdPerDay: '0.00' } }],
    ['exponent', { name: 'n', rules: { maxUsdPerDay: '1e3' } }],
    ['unknown scope', { name: 'n', scope: 'global', rules }],
    ['unknown field', { name: 'n', rules, wallets: [] }],
  ] as const) {
    await invalid(`POST /policies ${what}`, '/policies', { key: ok, body }, 400, 'INVALID_REQUEST', true);
  }
  // the decimals of a JSON number are the one rule the document says in words only
  await invalid(
    'POST /policies number with three decimals',
    '/policies',
    { key: ok, body: { name: 'n', rules: { maxUsdPerIntent: 1.234 } } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await direct(
    'POST /policies malformed JSON',
    'POST',
    '/policies',
    ['/policies', 'post'],
    { key: ok, raw: '{"name":', headers: { 'Content-Type': 'application/json' } },
    400,
    'INVALID_REQUEST',
  );
  await invalid(
    'POST /policies text/plain',
    '/policies',
    { key: ok, raw: JSON.stringify({ name: 'n', rules }), headers: { 'Content-Type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    true,
  );
  await invalid('POST /policies oversized', '/policies', { key: ok, body: { name: 'n', rules, pad: 'x'.repeat(5000) } }, 413, 'PAYLOAD_TOO_LARGE', true);
  await invalid('POST /policies read-only key', '/policies', { key: ownerReader.key, body: { name: 'n', rules } }, 403, 'FORBIDDEN', false);
  await invalid('POST /policies no key', '/policies', { body: { name: 'n', rules } }, 401, 'UNAUTHORIZED', true);

  const policies = await valid('GET /policies', '/policies', { key: ok }, 200);
  check(
    'GET /policies: newest first',
    policies.body?.policies?.map((p: { id: string }) => p.id),
    [accountPolicy.body?.id, unused.body?.id, policyId],
  );
  const onePolicy = await valid('GET /policies first=1', '/policies?first=1', { key: ok }, 200);
  check('GET /policies first=1: hasNextPage', onePolicy.body?.pageInfo?.hasNextPage, true);
  await valid('GET /policies next page', `/policies?first=1&after=${onePolicy.body?.pageInfo?.endCursor}`, { key: ok }, 200);
  await valid('GET /policies first=100', '/policies?first=100', { key: ok }, 200);
  await valid('GET /policies read-only key', '/policies', { key: ownerReader.key }, 200);
  await valid('GET /policies none', '/policies', { key: free.key }, 200);
  await invalid('GET /policies first 0', '/policies?first=0', { key: ok }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /policies first 101', '/policies?first=101', { key: ok }, 400, 'INVALID_REQUEST', true);
  await invalid('GET /policies first not a number', '/policies?first=ten', { key: ok }, 400, 'INVALID_REQUEST', true);
  // (Prism checks no constraint on an empty query value)
  await invalid('GET /policies empty after', '/policies?after=', { key: ok }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /policies bad cursor', '/policies?after=zzz', { key: ok }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /policies unknown query parameter', '/policies?sort=asc', { key: ok }, 400, 'INVALID_REQUEST', false);
  await invalid('GET /policies no key', '/policies', {}, 401, 'UNAUTHORIZED', true);

  await valid('GET /policies/{policyId}', `/policies/${policyId}`, { key: ok }, 200);
  await valid('GET /policies/{policyId} read-only key', `/policies/${policyId}`, { key: ownerReader.key }, 200);
  await invalid('GET /policies/{policyId} unknown', '/policies/svc_policy_nope', { key: ok }, 404, 'POLICY_NOT_FOUND', false);
  await invalid('GET /policies/{policyId} other account', `/policies/${policyId}`, { key: free.key }, 404, 'POLICY_NOT_FOUND', false);

  const set = await valid('PUT /wallets/{walletId}/policy', `/wallets/${governed}/policy`, { key: ok, method: 'PUT', body: { policyId } }, 200);
  check('PUT /wallets/{walletId}/policy: the wallet shows it', set.body?.policyId, policyId);
  await invalid(
    'PUT /wallets/{walletId}/policy account-scope policy',
    `/wallets/${governed}/policy`,
    { key: ok, method: 'PUT', body: { policyId: accountPolicy.body?.id } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy missing policyId',
    `/wallets/${governed}/policy`,
    { key: ok, method: 'PUT', body: {} },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy empty policyId',
    `/wallets/${governed}/policy`,
    { key: ok, method: 'PUT', body: { policyId: '' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy unknown field',
    `/wallets/${governed}/policy`,
    { key: ok, method: 'PUT', body: { policyId, force: true } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy unknown policy',
    `/wallets/${governed}/policy`,
    { key: ok, method: 'PUT', body: { policyId: 'svc_policy_nope' } },
    404,
    'POLICY_NOT_FOUND',
    false,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy unknown wallet',
    '/wallets/svc_wallet_nope/policy',
    { key: ok, method: 'PUT', body: { policyId } },
    404,
    'WALLET_NOT_FOUND',
    false,
  );
  await invalid(
    "PUT /wallets/{walletId}/policy other account's wallet",
    `/wallets/${walletId}/policy`,
    { key: ok, method: 'PUT', body: { policyId } },
    404,
    'WALLET_NOT_FOUND',
    false,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy text/plain',
    `/wallets/${governed}/policy`,
    { key: ok, method: 'PUT', raw: JSON.stringify({ policyId }), headers: { 'Content-Type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    true,
  );
  await invalid(
    'PUT /wallets/{walletId}/policy read-only key',
    `/wallets/${governed}/policy`,
    { key: ownerReader.key, method: 'PUT', body: { policyId } },
    403,
    'FORBIDDEN',
    false,
  );
  await valid('GET /wallets/{userId} with a policy', '/wallets/governed', { key: ok }, 200);
  const born = await valid('POST /wallets with a policy', '/wallets', { key: ok, body: { userId: 'born-governed', policyId } }, 201);
  check('POST /wallets with a policy: policyId', born.body?.policyId, policyId);
  await invalid(
    'POST /wallets account-scope policy',
    '/wallets',
    { key: ok, body: { userId: 'nope-1', policyId: accountPolicy.body?.id } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'POST /wallets unknown policy',
    '/wallets',
    { key: ok, body: { userId: 'nope-2', policyId: 'svc_policy_nope' } },
    404,
    'POLICY_NOT_FOUND',
    false,
  );
  await invalid('POST /wallets empty policyId', '/wallets', { key: ok, body: { userId: 'nope-3', policyId: '' } }, 400, 'INVALID_REQUEST', true);
  await valid('DELETE /wallets/{walletId}/policy born governed', `/wallets/${born.body?.id}/policy`, { key: ok, method: 'DELETE' }, 204);

  // the decision before anything is stored (an unfunded wallet: a refusal happens before that matters)
  const underPolicy = await valid('POST /intents under a policy', '/intents', { key: ok, body: { walletId: governed, action: 'lend', amount: '0.5' } }, 201);
  check('POST /intents under a policy: policy recorded', underPolicy.body?.policy, { id: policyId, version: 1 });
  await valid('GET /intents/{intentId} under a policy', `/intents/${underPolicy.body?.id}`, { key: ok }, 200);
  const refused = await invalid(
    'POST /intents policy violation',
    '/intents',
    { key: ok, body: { walletId: governed, action: 'lend', amount: '2' } },
    403,
    'POLICY_VIOLATION',
    false,
  );
  check(
    'POST /intents policy violation: details',
    [
      refused.body?.details?.policyId,
      refused.body?.details?.version,
      refused.body?.details?.rule,
      refused.body?.details?.limit,
      typeof refused.body?.details?.requested,
    ],
    [policyId, 1, 'maxUsdPerIntent', '1', 'string'],
  );
  await invalid(
    'POST /intents policy violation (action)',
    '/intents',
    { key: ok, body: { walletId: governed, action: 'bridge', amount: '0.1', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' } },
    403,
    'POLICY_VIOLATION',
    false,
  );

  const updated = await valid(
    'PUT /policies/{policyId}',
    `/policies/${policyId}`,
    { key: ok, method: 'PUT', body: { name: 'Lends only', rules: { actions: ['lend'], maxUsdPerIntent: 1 } } },
    200,
  );
  check(
    'PUT /policies/{policyId}: version + 1, rules replaced',
    [updated.body?.version, updated.body?.rules],
    [2, { actions: ['lend'], maxUsdPerIntent: '1' }],
  );
  const refusedAgain = await invalid(
    'POST /intents policy violation (version 2)',
    '/intents',
    { key: ok, body: { walletId: governed, action: 'lend', amount: '2' } },
    403,
    'POLICY_VIOLATION',
    false,
  );
  check('POST /intents policy violation (version 2): details.version', refusedAgain.body?.details?.version, 2);
  await invalid(
    'PUT /policies/{policyId} scope',
    `/policies/${policyId}`,
    { key: ok, method: 'PUT', body: { name: 'n', scope: 'account', rules } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'PUT /policies/{policyId} missing rules',
    `/policies/${policyId}`,
    { key: ok, method: 'PUT', body: { name: 'n' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'PUT /policies/{policyId} no rule',
    `/policies/${policyId}`,
    { key: ok, method: 'PUT', body: { name: 'n', rules: {} } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'PUT /policies/{policyId} unknown',
    '/policies/svc_policy_nope',
    { key: ok, method: 'PUT', body: { name: 'n', rules } },
    404,
    'POLICY_NOT_FOUND',
    false,
  );
  await invalid(
    'PUT /policies/{policyId} other account',
    `/policies/${policyId}`,
    { key: free.key, method: 'PUT', body: { name: 'n', rules } },
    404,
    'POLICY_NOT_FOUND',
    false,
  );
  await invalid(
    'PUT /policies/{policyId} text/plain',
    `/policies/${policyId}`,
    { key: ok, method: 'PUT', raw: JSON.stringify({ name: 'n', rules }), headers: { 'Content-Type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    true,
  );
  await invalid(
    'PUT /policies/{policyId} oversized',
    `/policies/${policyId}`,
    { key: ok, method: 'PUT', body: { name: 'n', rules, pad: 'x'.repeat(5000) } },
    413,
    'PAYLOAD_TOO_LARGE',
    true,
  );
  await invalid(
    'PUT /policies/{policyId} read-only key',
    `/policies/${policyId}`,
    { key: ownerReader.key, method: 'PUT', body: { name: 'n', rules } },
    403,
    'FORBIDDEN',
    false,
  );
  // concurrent updates that keep winning (the store's compare-and-set fails every try)
  const lost = jest.spyOn(srv.service.deps.store.policies, 'update').mockResolvedValue(false);
  try {
    await invalid(
      'PUT /policies/{policyId} concurrent updates',
      `/policies/${policyId}`,
      { key: ok, method: 'PUT', body: { name: 'n', rules } },
      409,
      'VERSION_CONFLICT',
      false,
    );
  } finally {
    lost.mockRestore();
  }

  await invalid('DELETE /policies/{policyId} in use', `/policies/${policyId}`, { key: ok, method: 'DELETE' }, 409, 'POLICY_IN_USE', false);
  await invalid(
    'DELETE /policies/{policyId} account policy in use',
    `/policies/${accountPolicy.body?.id}`,
    { key: ok, method: 'DELETE' },
    409,
    'POLICY_IN_USE',
    false,
  );
  await invalid(
    'DELETE /policies/{policyId} read-only key',
    `/policies/${unused.body?.id}`,
    { key: ownerReader.key, method: 'DELETE' },
    403,
    'FORBIDDEN',
    false,
  );
  await invalid(
    'DELETE /policies/{policyId} other account',
    `/policies/${unused.body?.id}`,
    { key: free.key, method: 'DELETE' },
    404,
    'POLICY_NOT_FOUND',
    false,
  );
  await valid('DELETE /policies/{policyId}', `/policies/${unused.body?.id}`, { key: ok, method: 'DELETE' }, 204);
  await invalid('DELETE /policies/{policyId} deleted', `/policies/${unused.body?.id}`, { key: ok, method: 'DELETE' }, 404, 'POLICY_NOT_FOUND', false);
  await invalid('DELETE /policies/{policyId} no key', `/policies/${policyId}`, { method: 'DELETE' }, 401, 'UNAUTHORIZED', true);

  await invalid(
    'DELETE /wallets/{walletId}/policy read-only key',
    `/wallets/${governed}/policy`,
    { key: ownerReader.key, method: 'DELETE' },
    403,
    'FORBIDDEN',
    false,
  );
  await invalid(
    'DELETE /wallets/{walletId}/policy unknown wallet',
    '/wallets/svc_wallet_nope/policy',
    { key: ok, method: 'DELETE' },
    404,
    'WALLET_NOT_FOUND',
    false,
  );
  await valid('DELETE /wallets/{walletId}/policy', `/wallets/${governed}/policy`, { key: ok, method: 'DELETE' }, 204);
  await valid('DELETE /wallets/{walletId}/policy none set', `/wallets/${governed}/policy`, { key: ok, method: 'DELETE' }, 204);
  const released = await valid('GET /wallets/{userId} policy removed', '/wallets/governed', { key: ok }, 200);
  check('DELETE /wallets/{walletId}/policy: policyId null', released.body?.policyId, null);
  await valid('DELETE /policies/{policyId} no longer in use', `/policies/${policyId}`, { key: ok, method: 'DELETE' }, 204);
  // a wallet whose own policy is gone (only the store can get there) fails closed
  await srv.service.deps.store.wallets.setPolicy(governed, 'svc_policy_gone');
  await invalid(
    'POST /intents own policy gone',
    '/intents',
    { key: ok, body: { walletId: governed, action: 'lend', amount: '0.1' } },
    404,
    'POLICY_NOT_FOUND',
    false,
  );
  await srv.service.deps.store.wallets.setPolicy(governed, null);

  // ---- webhooks (an account of their own; loopback URLs are allowed in a sandbox) ----
  const hooks = await srv.admin.createAccount({ plan: 'pro' });
  const hooksReader = await srv.admin.issueKey(hooks.accountId, { scopes: ['read'] });
  const hook = await valid(
    'POST /webhooks',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['intent.completed', 'intent.failed'], description: 'orders' } },
    201,
  );
  const webhookId: string = hook.body?.id;
  check('POST /webhooks: the secret once', typeof hook.body?.secret === 'string' && hook.body.secret.startsWith('whsec_'), true);
  await valid('POST /webhooks no description', '/webhooks', { key: hooks.key, body: { url: 'https://127.0.0.1:9/other', events: ['intent.updated'] } }, 201);
  await invalid(
    'POST /webhooks private address',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://10.0.0.1/hooks', events: ['intent.completed'] } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'POST /webhooks link-local address',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://169.254.169.254/latest', events: ['intent.completed'] } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'POST /webhooks not a URL',
    '/webhooks',
    { key: hooks.key, body: { url: 'hooks', events: ['intent.completed'] } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /webhooks no events',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://127.0.0.1:9/hooks', events: [] } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /webhooks unknown event',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['wallet.created'] } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /webhooks unknown field',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['intent.failed'], secret: 'mine' } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /webhooks text/plain',
    '/webhooks',
    { key: hooks.key, raw: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['intent.failed'] }), headers: { 'Content-Type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    true,
  );
  await invalid(
    'POST /webhooks oversized',
    '/webhooks',
    { key: hooks.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['intent.failed'], pad: 'x'.repeat(5000) } },
    413,
    'PAYLOAD_TOO_LARGE',
    true,
  );
  await invalid(
    'POST /webhooks read-only key',
    '/webhooks',
    { key: hooksReader.key, body: { url: 'http://127.0.0.1:9/hooks', events: ['intent.failed'] } },
    403,
    'FORBIDDEN',
    false,
  );
  await invalid('POST /webhooks no key', '/webhooks', { body: { url: 'http://127.0.0.1:9/hooks', events: ['intent.failed'] } }, 401, 'UNAUTHORIZED', true);
  const hookList = await valid('GET /webhooks', '/webhooks', { key: hooks.key }, 200);
  check(
    'GET /webhooks: newest first, no secret',
    [hookList.body?.webhooks?.length, hookList.body?.webhooks?.[1]?.id, hookList.body?.webhooks?.[1]?.secret],
    [2, webhookId, undefined],
  );
  await valid('GET /webhooks none', '/webhooks', { key: free.key }, 200);
  await invalid('GET /webhooks no key', '/webhooks', {}, 401, 'UNAUTHORIZED', true);
  await valid('GET /webhooks/{webhookId}', `/webhooks/${webhookId}`, { key: hooks.key }, 200);
  await valid('GET /webhooks/{webhookId} read-only key', `/webhooks/${webhookId}`, { key: hooksReader.key }, 200);
  await invalid('GET /webhooks/{webhookId} unknown', '/webhooks/svc_webhook_nope', { key: hooks.key }, 404, 'WEBHOOK_NOT_FOUND', false);
  await invalid('GET /webhooks/{webhookId} other account', `/webhooks/${webhookId}`, { key: free.key }, 404, 'WEBHOOK_NOT_FOUND', false);
  const sent = await valid('POST /webhooks/{webhookId}/test', `/webhooks/${webhookId}/test`, { key: hooks.key, method: 'POST' }, 202);
  check(
    'POST /webhooks/{webhookId}/test: pending webhook.test',
    [sent.body?.eventType, sent.body?.status, sent.body?.attempts],
    ['webhook.test', 'pending', 0],
  );
  await invalid(
    'POST /webhooks/{webhookId}/test read-only key',
    `/webhooks/${webhookId}/test`,
    { key: hooksReader.key, method: 'POST' },
    403,
    'FORBIDDEN',
    false,
  );
  await invalid(
    'POST /webhooks/{webhookId}/test unknown',
    '/webhooks/svc_webhook_nope/test',
    { key: hooks.key, method: 'POST' },
    404,
    'WEBHOOK_NOT_FOUND',
    false,
  );
  // a delivery with its intent as data (a real one of the first account, recorded as the engine would)
  await srv.service.deps.store.webhooks.insertDelivery({
    id: `msg_${'ab'.repeat(16)}`,
    endpointId: webhookId,
    accountId: hooks.accountId,
    eventType: 'intent.completed',
    body: JSON.stringify({
      type: 'intent.completed',
      timestamp: new Date().toISOString(),
      data: (await srv.rest('GET', `/v1/intents/${intentId}`, { key })).body,
    }),
    status: 'failed',
    attempts: 9,
    nextAttemptAt: null,
    lastStatusCode: 500,
    lastError: 'the endpoint answered 500',
    createdAt: new Date(Date.now() - 1000).toISOString(),
    deliveredAt: null,
    claimedUntil: null,
    claimedBy: null,
  });
  const deliveries = await valid('GET /webhooks/{webhookId}/deliveries', `/webhooks/${webhookId}/deliveries`, { key: hooks.key }, 200);
  check(
    'GET /webhooks/{webhookId}/deliveries: newest first',
    deliveries.body?.deliveries?.map((d: { eventType: string }) => d.eventType),
    ['webhook.test', 'intent.completed'],
  );
  const firstDelivery = await valid('GET /webhooks/{webhookId}/deliveries first=1', `/webhooks/${webhookId}/deliveries?first=1`, { key: hooks.key }, 200);
  await valid(
    'GET /webhooks/{webhookId}/deliveries next page',
    `/webhooks/${webhookId}/deliveries?first=1&after=${firstDelivery.body?.pageInfo?.endCursor}`,
    { key: hooks.key },
    200,
  );
  await invalid('GET /webhooks/{webhookId}/deliveries first 0', `/webhooks/${webhookId}/deliveries?first=0`, { key: hooks.key }, 400, 'INVALID_REQUEST', true);
  await invalid(
    'GET /webhooks/{webhookId}/deliveries bad cursor',
    `/webhooks/${webhookId}/deliveries?after=zzz`,
    { key: hooks.key },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'GET /webhooks/{webhookId}/deliveries unknown query parameter',
    `/webhooks/${webhookId}/deliveries?status=failed`,
    { key: hooks.key },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid('GET /webhooks/{webhookId}/deliveries unknown', '/webhooks/svc_webhook_nope/deliveries', { key: hooks.key }, 404, 'WEBHOOK_NOT_FOUND', false);
  await invalid('DELETE /webhooks/{webhookId} read-only key', `/webhooks/${webhookId}`, { key: hooksReader.key, method: 'DELETE' }, 403, 'FORBIDDEN', false);
  await invalid('DELETE /webhooks/{webhookId} other account', `/webhooks/${webhookId}`, { key: free.key, method: 'DELETE' }, 404, 'WEBHOOK_NOT_FOUND', false);
  await valid('DELETE /webhooks/{webhookId}', `/webhooks/${webhookId}`, { key: hooks.key, method: 'DELETE' }, 204);
  await invalid('DELETE /webhooks/{webhookId} deleted', `/webhooks/${webhookId}`, { key: hooks.key, method: 'DELETE' }, 404, 'WEBHOOK_NOT_FOUND', false);

  // ---- standing intents (an account of their own) ----
  const keeper = await srv.admin.createAccount({ plan: 'pro' });
  const keeperReader = await srv.admin.issueKey(keeper.accountId, { scopes: ['read'] });
  const keeperWallet = (await valid('POST /wallets keeper', '/wallets', { key: keeper.key, body: { userId: 'keeper' } }, 201)).body?.id;
  const standing = await valid(
    'POST /standing-intents',
    '/standing-intents',
    { key: keeper.key, body: { walletId: keeperWallet, asset: 'USDC', amount: '250' } },
    201,
  );
  const standingId: string = standing.body?.id;
  await valid(
    'POST /standing-intents every field',
    '/standing-intents',
    { key: keeper.key, body: { walletId: keeperWallet, asset: 'WETH', horizonDays: 7, minGainUsd: 2.5, maxMovesPerDay: 1 } },
    201,
  );
  await invalid(
    'POST /standing-intents unknown field',
    '/standing-intents',
    { key: keeper.key, body: { walletId: keeperWallet, asset: 'DAI', every: 1 } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /standing-intents bad limits',
    '/standing-intents',
    { key: keeper.key, body: { walletId: keeperWallet, asset: 'DAI', maxMovesPerDay: 99 } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'POST /standing-intents twice',
    '/standing-intents',
    { key: keeper.key, body: { walletId: keeperWallet, asset: 'USDC' } },
    409,
    'STANDING_INTENT_ALREADY_EXISTS',
    false,
  );
  await invalid(
    'POST /standing-intents unknown wallet',
    '/standing-intents',
    { key: keeper.key, body: { walletId: 'svc_wallet_nope', asset: 'DAI' } },
    404,
    'WALLET_NOT_FOUND',
    false,
  );
  await invalid(
    'POST /standing-intents read-only key',
    '/standing-intents',
    { key: keeperReader.key, body: { walletId: keeperWallet, asset: 'DAI' } },
    403,
    'FORBIDDEN',
    false,
  );
  await valid('GET /standing-intents', '/standing-intents?first=1', { key: keeper.key }, 200);
  await valid('GET /standing-intents read-only key', '/standing-intents', { key: keeperReader.key }, 200);
  await invalid('GET /standing-intents bad first', '/standing-intents?first=0', { key: keeper.key }, 400, 'INVALID_REQUEST', true);
  await valid('GET /standing-intents/{standingIntentId}', `/standing-intents/${standingId}`, { key: keeper.key }, 200);
  await invalid(
    'GET /standing-intents/{standingIntentId} other account',
    `/standing-intents/${standingId}`,
    { key: free.key },
    404,
    'STANDING_INTENT_NOT_FOUND',
    false,
  );
  await valid('POST /standing-intents/{standingIntentId}/pause', `/standing-intents/${standingId}/pause`, { key: keeper.key, method: 'POST' }, 200);
  await invalid(
    'POST /standing-intents/{standingIntentId}/pause read-only key',
    `/standing-intents/${standingId}/pause`,
    { key: keeperReader.key, method: 'POST' },
    403,
    'FORBIDDEN',
    false,
  );
  await invalid(
    'POST /standing-intents/{standingIntentId}/pause unknown',
    '/standing-intents/svc_standing_nope/pause',
    { key: keeper.key, method: 'POST' },
    404,
    'STANDING_INTENT_NOT_FOUND',
    false,
  );
  await valid('POST /standing-intents/{standingIntentId}/resume', `/standing-intents/${standingId}/resume`, { key: keeper.key, method: 'POST' }, 200);
  await invalid(
    'POST /standing-intents/{standingIntentId}/resume unknown',
    '/standing-intents/svc_standing_nope/resume',
    { key: keeper.key, method: 'POST' },
    404,
    'STANDING_INTENT_NOT_FOUND',
    false,
  );
  await valid('GET /standing-intents/{standingIntentId}/earnings', `/standing-intents/${standingId}/earnings`, { key: keeper.key }, 200);
  await invalid(
    'GET /standing-intents/{standingIntentId}/earnings other account',
    `/standing-intents/${standingId}/earnings`,
    { key: free.key },
    404,
    'STANDING_INTENT_NOT_FOUND',
    false,
  );
  // a decision of each outcome, recorded as the decider would
  const decided = (minute: number, over: Pick<StandingDecision, 'outcome'> & Partial<StandingDecision>): StandingDecision => ({
    id: `svc_decision_${String(minute).padStart(32, '0')}`,
    standingIntentId: standingId,
    accountId: keeper.accountId,
    walletId: keeperWallet,
    sampleAt: new Date(Date.UTC(2026, 0, 31, 12, minute)).toISOString(),
    decidedAt: new Date().toISOString(),
    trigger: 'rate_sample' as const,
    numbers: {
      target: { chain: 'base-sepolia' as const, protocol: 'aave-v3' as const, apy: 4.2 },
      sources: [{ chain: 'arbitrum-sepolia' as const, protocol: null, amount: '250', apy: 0 }],
      amount: '250',
      costs: { withdrawGasUsd: 0, bridgeFeeUsd: 0.1, bridgeGasUsd: 0.05, depositGasUsd: 0.04, totalUsd: 0.19 },
      gainUsd: 0.86,
      netGainUsd: 0.67,
      thresholdUsd: 1,
      horizonDays: 30,
    },
    ...over,
  });
  await srv.service.deps.store.standingDecisions.insertOnce(decided(1, { outcome: 'skipped', reason: 'below_threshold' }));
  await srv.service.deps.store.standingDecisions.insertOnce(decided(2, { outcome: 'rebalanced', intentId: `intent_${'0'.repeat(32)}` }));
  const decisions = await valid(
    'GET /standing-intents/{standingIntentId}/decisions',
    `/standing-intents/${standingId}/decisions?first=1`,
    { key: keeper.key },
    200,
  );
  check(
    'GET /standing-intents/{standingIntentId}/decisions: newest first, more after',
    [decisions.body?.decisions?.[0]?.outcome, decisions.body?.pageInfo?.hasNextPage],
    ['rebalanced', true],
  );
  await valid(
    'GET /standing-intents/{standingIntentId}/decisions next page',
    `/standing-intents/${standingId}/decisions?after=${decisions.body?.pageInfo?.endCursor}`,
    { key: keeper.key },
    200,
  );
  await invalid(
    'GET /standing-intents/{standingIntentId}/decisions unknown query',
    `/standing-intents/${standingId}/decisions?limit=2`,
    { key: keeper.key },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'GET /standing-intents/{standingIntentId}/decisions other account',
    `/standing-intents/${standingId}/decisions`,
    { key: free.key },
    404,
    'STANDING_INTENT_NOT_FOUND',
    false,
  );
  // the backtest's answers are the backtest's; here its refusals of a window the document cannot express, and of a body it can
  await invalid(
    'POST /standing-intents/simulate backwards window',
    '/standing-intents/simulate',
    { key: keeper.key, body: { asset: 'USDC', amount: '10', from: '2026-01-31', to: '2026-01-01' } },
    400,
    'INVALID_REQUEST',
    false,
  );
  await invalid(
    'POST /standing-intents/simulate unknown field',
    '/standing-intents/simulate',
    { key: keeper.key, body: { asset: 'USDC', amount: '10', days: 3 } },
    400,
    'INVALID_REQUEST',
    true,
  );
  await invalid(
    'DELETE /standing-intents/{standingIntentId} read-only key',
    `/standing-intents/${standingId}`,
    { key: keeperReader.key, method: 'DELETE' },
    403,
    'FORBIDDEN',
    false,
  );
  await valid('DELETE /standing-intents/{standingIntentId}', `/standing-intents/${standingId}`, { key: keeper.key, method: 'DELETE' }, 204);
  await invalid(
    'DELETE /standing-intents/{standingIntentId} deleted',
    `/standing-intents/${standingId}`,
    { key: keeper.key, method: 'DELETE' },
    404,
    'STANDING_INTENT_NOT_FOUND',
    false,
  );

  // ---- usage (free), and X-Credits-Remaining against the body ----
  const usage = await valid('GET /usage', '/usage', { key }, 200);
  check(
    'GET /usage: X-Credits-Remaining is limit - used',
    usage.headers.get('x-credits-remaining'),
    String(usage.body?.credits?.limit - usage.body?.credits?.used),
  );
  await valid('GET /usage query ignored', '/usage?verbose=1', { key }, 200);
  await valid('GET /usage read-only key', '/usage', { key: readOnly.key }, 200);
  const unlimited = await valid('GET /usage unlimited plan', '/usage', { key: (await srv.admin.createAccount({ plan: 'enterprise' })).key }, 200);
  check(
    'GET /usage unlimited plan: limits null, X-Credits-Remaining unlimited',
    [unlimited.body?.credits?.limit, unlimited.body?.wallets?.limit, unlimited.headers.get('x-credits-remaining')],
    [null, null, 'unlimited'],
  );
  await invalid('GET /usage no key', '/usage', {}, 401, 'UNAUTHORIZED', true);
  await invalid('GET /usage malformed key', '/usage', { key: 'nope' }, 401, 'UNAUTHORIZED', false);

  // ---- keys, limits, credits, failures ----
  const revoked = await srv.admin.createAccount({ plan: 'pro' });
  await srv.admin.revokeKey(revoked.keyId);
  await invalid('GET /yields revoked key', '/yields', { key: revoked.key }, 401, 'UNAUTHORIZED', false);
  await invalid('POST /intents revoked key', '/intents', { key: revoked.key, body: intentBody }, 401, 'UNAUTHORIZED', false);
  await invalid('GET /usage revoked key', '/usage', { key: revoked.key }, 401, 'UNAUTHORIZED', false);

  const tiny = await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 2 });
  await fitInRateWindow(5_000); // the four requests below in one rate window
  await valid('GET /yields within the rate limit', '/yields', { key: tiny.key }, 200);
  await valid('GET /yields within the rate limit', '/yields', { key: tiny.key }, 200);
  const rate = await valid('GET /yields rate limit', '/yields', { key: tiny.key }, 429, 'RATE_LIMIT_EXCEEDED');
  check('GET /yields rate limit: X-RateLimit-Remaining', rate.headers.get('x-ratelimit-remaining'), '0');
  await valid('POST /wallets rate limit', '/wallets', { key: tiny.key, body: { userId: 'x' } }, 429, 'RATE_LIMIT_EXCEEDED');
  const usageLimited = await valid('GET /usage rate limit', '/usage', { key: tiny.key }, 429, 'RATE_LIMIT_EXCEEDED');
  check('GET /usage rate limit: X-Credits-Remaining (2 yields charged)', usageLimited.headers.get('x-credits-remaining'), '9998');

  const broke = await srv.admin.createAccount({ plan: 'free' });
  const { month, resetsAt } = creditMonth(new Date());
  await srv.service.deps.store.usage.increment(`credits:${broke.accountId}:${month}`, 100, new Date(resetsAt.getTime() + 31 * 86_400_000));
  for (const [label, path, c] of [
    ['POST /wallets', '/wallets', { body: { userId: 'y' } }],
    ['GET /yields', '/yields', {}],
    ['GET /intents', '/intents?walletId=svc_wallet_nope', {}],
    ['POST /intents', '/intents', { body: { walletId, action: 'lend', amount: '1' } }],
  ] as const) {
    const refused = await valid(`${label} credits exhausted`, path, { ...c, key: broke.key }, 403, 'CREDITS_EXHAUSTED');
    check(`${label} credits exhausted: X-Credits-Remaining`, refused.headers.get('x-credits-remaining'), '0');
  }
  const brokeUsage = await valid('GET /usage credits exhausted (free: still answers)', '/usage', { key: broke.key }, 200);
  check('GET /usage credits exhausted: used, X-Credits-Remaining', [brokeUsage.body?.credits?.used, brokeUsage.headers.get('x-credits-remaining')], [100, '0']);

  const corrupt = await seedCorruptAccountKey(srv);
  await valid('GET /yields internal error', '/yields', { key: corrupt }, 500, 'INTERNAL_ERROR');
  await valid('POST /wallets internal error', '/wallets', { key: corrupt, body: { userId: 'z' } }, 500, 'INTERNAL_ERROR');
  await valid('GET /usage internal error', '/usage', { key: corrupt }, 500, 'INTERNAL_ERROR');

  // every documented operation was exercised
  const ops = Object.entries(doc.paths).flatMap(([p, o]: [string, any]) => Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`));
  for (const op of ops) check(`${op} exercised`, seen.has(op), true);
  console.log(
    `openapi conformance: ${[...seen.values()].reduce((n, s) => n + s.size, 0)} (operation, status) pairs in ${Date.now() - started} ms; lend intent ended ${status || 'not final'}\n` +
      [...seen].map(([op, statuses]) => `  ${op}: ${[...statuses].sort().join(', ')}`).join('\n'),
  );
  if (failures.length > 0) console.log(`violations:\n${failures.join('\n')}`);
  expect(failures).toEqual([]);
}, 120_000);

test('conformance: methods a path does not take, and unknown paths, answer the documented Error (checked directly: Prism answers these itself)', async () => {
  const { key } = await srv.admin.createAccount({ plan: 'pro' });
  for (const [method, path, allow] of [
    ['DELETE', '/wallets', 'POST'],
    ['PUT', '/intents', 'GET, HEAD, POST'],
    ['POST', '/yields', 'GET, HEAD'],
    ['PATCH', '/demo/fund', 'POST'],
    ['DELETE', '/wallets/alice', 'GET, HEAD'],
    ['PATCH', '/policies', 'GET, HEAD, POST'],
    ['POST', '/policies/svc_policy_x', 'DELETE, GET, HEAD, PUT'],
    ['GET', '/wallets/svc_wallet_x/policy', 'DELETE, PUT'],
    ['POST', '/usage', 'GET, HEAD'],
  ] as const) {
    const viaPrism = await call(strict, path, { method, key });
    expect({ path, prism: viaPrism.byPrism }).toEqual({ path, prism: 'NO_METHOD_MATCHED_ERROR' });
    await direct(`${method} ${path}`, method, path, null, { key }, 405, 'METHOD_NOT_ALLOWED');
    const a = await srv.rest(method, `/v1${path}`, { key });
    expect({
      path,
      allow: a.headers.get('allow')?.split(/,\s*/).sort(),
      requestId: !!a.headers.get('x-request-id'),
      rate: !!a.headers.get('x-ratelimit-limit'),
      credits: a.headers.get('x-credits-remaining'),
    }).toEqual({
      path,
      allow: allow.split(', ').sort(),
      requestId: true,
      rate: true,
      credits: '10000',
    });
  }
  await direct('GET /nothing-here', 'GET', '/nothing-here', null, { key }, 404, 'NOT_FOUND');
  await direct('GET /nothing-here without a key', 'GET', '/nothing-here', null, {}, 401, 'UNAUTHORIZED');
  expect(failures).toEqual([]);
});
