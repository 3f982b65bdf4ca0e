import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';
import { buildSchema } from '../../src/graphql/schema';
import { ROOT_FIELD_CALLERS } from '../../src/graphql/operationCost';
import { graphqlRequestArbitrary, type GeneratedRequest } from '../helpers/graphqlArbitraries';

/**
 * Schema-driven GraphQL fuzzing: requests generated from
 * the schema itself (test/helpers/graphqlArbitraries.ts: every root field of
 * Query, Mutation and Subscription, selections walked through the output
 * types, arguments as literals or variables, values of the right and the
 * wrong types, now and then an unknown field or argument, a wrong fragment, a
 * truncated document) sent to a started service over POST
 * (`application/json`, the fast path; `application/graphql-response+json`
 * and `application/graphql`, yoga) and GET. Whatever the request, the answer
 * is JSON, never a 5xx, every error carries an `extensions.code` and none is
 * INTERNAL_ERROR, and it comes within 10 s. The dashboard's session-only
 * fields answer FORBIDDEN to an API key: expected, counted like any code.
 *
 * Seeded and bounded in `npm test` (GRAPHQL_FUZZ_RUNS, default 150;
 * FUZZ_SEED); `npm run fuzz` runs 10,000. The figures (examples, outcomes by
 * code, HTTP statuses, latency, elapsed) are printed at the end.
 */
const RUNS = Number(process.env.GRAPHQL_FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REQUEST_TIMEOUT_MS = 10_000;
/** Longer URLs go by POST instead (Node refuses request heads over 16 KB before the service sees them). */
const MAX_GET_URL = 6_000;

type Transport = 'POST json' | 'POST graphql-response+json' | 'POST application/graphql' | 'GET';

let srv: TestServer;
let key: string;
const pools = { ids: [] as string[], userIds: ['fuzz-u0', 'fuzz-u1', 'fuzz-u2'] };

beforeAll(async () => {
  srv = await startTestServer();
  key = (await srv.admin.createAccount({ plan: 'enterprise', requestsPerMinute: 1_000_000 })).key;
  // Real ids for the generated ones to hit now and then: this account's wallets and an intent, another account's wallet.
  for (const userId of pools.userIds) {
    const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId } });
    if (w.status !== 201) throw new Error(`POST /v1/wallets: ${w.status} ${w.text}`);
    pools.ids.push(w.body.id);
  }
  const intent = await srv.rest('POST', '/v1/intents', { key, body: { walletId: pools.ids[0], action: 'lend', amount: '1' } });
  if (intent.status < 300) pools.ids.push(intent.body.id);
  const other = await srv.admin.createAccount({ plan: 'free' });
  const theirs = await srv.rest('POST', '/v1/wallets', { key: other.key, body: { userId: 'fuzz-u0' } });
  if (theirs.status === 201) pools.ids.push(theirs.body.id);
}, 60_000);
afterAll(() => srv?.stop());

interface Sent {
  status: number;
  contentType: string;
  text: string;
  ms: number;
  transport: Transport;
}

async function send(r: GeneratedRequest, transport: Transport, idempotencyKey: string | undefined): Promise<Sent> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const params = { query: r.query, variables: r.variables, ...(r.operationName ? { operationName: r.operationName } : {}) };
  let url = `${srv.url}/graphql`;
  let init: RequestInit = { method: 'POST', headers };
  if (transport === 'GET') {
    const qs = new URLSearchParams({ query: r.query, variables: JSON.stringify(r.variables), ...(r.operationName ? { operationName: r.operationName } : {}) });
    if (url.length + qs.toString().length + 1 > MAX_GET_URL) transport = 'POST graphql-response+json';
    else url += `?${qs}`;
  }
  if (transport === 'GET') init = { method: 'GET', headers: { ...headers, Accept: 'application/graphql-response+json, application/json;q=0.9' } };
  else if (transport === 'POST application/graphql') init.body = r.query;
  else init.body = JSON.stringify(params);
  if (transport === 'POST json') Object.assign(headers, { 'Content-Type': 'application/json', Accept: 'application/json' });
  if (transport === 'POST graphql-response+json') Object.assign(headers, { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' });
  if (transport === 'POST application/graphql') Object.assign(headers, { 'Content-Type': 'application/graphql', Accept: 'application/graphql-response+json' });
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, ms: performance.now() - started, transport };
}

/** What is wrong with an answer (empty: nothing), and the error codes it carries. */
function judge(a: Sent): { problems: string[]; codes: string[] } {
  const problems: string[] = [];
  const codes: string[] = [];
  if (a.status >= 500) problems.push(`HTTP ${a.status}`);
  if (!/json/.test(a.contentType)) problems.push(`content-type ${JSON.stringify(a.contentType)}`);
  let body: any;
  try {
    body = JSON.parse(a.text);
  } catch {
    problems.push('the body is not JSON');
    return { problems, codes };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) problems.push('the body is not an object');
  else if (body.errors === undefined && (typeof body.data !== 'object' || body.data === null)) problems.push('neither data nor errors');
  if (body?.errors !== undefined && (!Array.isArray(body.errors) || body.errors.length === 0)) problems.push('errors is not a non-empty list');
  for (const e of Array.isArray(body?.errors) ? body.errors : []) {
    const code = e?.extensions?.code;
    if (typeof e?.message !== 'string') problems.push('an error without a message');
    if (typeof code !== 'string') problems.push(`an error without extensions.code: ${JSON.stringify(e)}`);
    else codes.push(code);
    if (code === 'INTERNAL_ERROR') problems.push(`INTERNAL_ERROR: ${JSON.stringify(e)}`);
  }
  return { problems, codes };
}

/** Running figures over the examples (shrinking runs included, should there be any). */
class Figures {
  examples = 0;
  readonly outcomes = new Map<string, number>();
  readonly codes = new Map<string, number>();
  readonly statuses = new Map<string, number>();
  readonly transports = new Map<string, number>();
  readonly rootFields = new Map<string, number>();
  /** Root fields of the answers with data and no error: what really ran (mutations included). */
  readonly answeredFields = new Map<string, number>();
  readonly operations = new Map<string, number>();
  readonly latencies: number[] = [];
  private readonly started = performance.now();

  record(r: GeneratedRequest, a: Sent, codes: string[]): void {
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    this.examples++;
    bump(this.outcomes, codes.length ? [...new Set(codes)].sort().join('+') : 'OK (data, no errors)');
    for (const c of codes) bump(this.codes, c);
    bump(this.statuses, String(a.status));
    bump(this.transports, a.transport);
    bump(this.operations, r.operationType);
    for (const f of new Set(r.rootFields)) bump(this.rootFields, f);
    if (codes.length === 0) for (const f of new Set(r.rootFields)) bump(this.answeredFields, `${r.operationType} ${f}`);
    this.latencies.push(a.ms);
  }

  percentile(p: number): number {
    const s = [...this.latencies].sort((x, y) => x - y);
    return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
  }

  print(): string {
    const table = (title: string, m: Map<string, number>) =>
      [`  ${title}:`, ...[...m].sort((x, y) => y[1] - x[1]).map(([k, n]) => `    ${String(n).padStart(6)}  ${k}`)].join('\n');
    const elapsed = (performance.now() - this.started) / 1000;
    return [
      `GraphQL schema fuzz: ${this.examples} examples (seed ${SEED}) in ${elapsed.toFixed(1)} s, ${(this.examples / elapsed).toFixed(0)}/s`,
      `  latency: p50 ${this.percentile(50).toFixed(1)} ms, p99 ${this.percentile(99).toFixed(1)} ms, max ${Math.max(...this.latencies).toFixed(1)} ms`,
      table('HTTP status', this.statuses),
      table('outcome (codes of an answer)', this.outcomes),
      table('errors by extensions.code', this.codes),
      table('transport', this.transports),
      table('operation', this.operations),
      table('root field (examples selecting it)', this.rootFields),
      table('answered with data and no error, by root field', this.answeredFields),
    ].join('\n');
  }
}

/**
 * Values the service accepts (the sandbox's test networks, intents whose
 * fields agree with their action, fresh user ids), mixed in by the
 * arbitraries two times in three so that mutations really run: wallets are
 * created, funded (within the funding limits) and given intents.
 */
function serviceShapedValues(): Record<string, fc.Arbitrary<unknown>> {
  const testnet = fc.constantFrom('ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'ETHEREUM_SEPOLIA');
  const wallet = fc.constantFrom(...pools.ids.filter((id) => id.startsWith('svc_wallet_')));
  const amount = fc.constantFrom('0.5', '1', '0.25', '2');
  return {
    Chain: testnet,
    CreateWalletInput: fc.record(
      {
        userId: fc.stringMatching(/^fuzz-[a-z0-9]{6,12}$/),
        email: fc.constantFrom('ada@example.com', 'fuzz@example.org'),
        metadata: fc.dictionary(fc.constantFrom('tier', 'plan', 'n'), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 2 }),
      },
      { requiredKeys: ['userId'] },
    ),
    CreateIntentInput: fc.oneof(
      fc.record(
        { walletId: wallet, action: fc.constant('LEND'), amount, asset: fc.constant('USDC'), chain: testnet },
        { requiredKeys: ['walletId', 'action', 'amount'] },
      ),
      fc.record({ walletId: wallet, action: fc.constant('WITHDRAW'), amount, chain: testnet }),
      fc
        .tuple(wallet, amount, fc.shuffledSubarray(['ARBITRUM_SEPOLIA', 'BASE_SEPOLIA', 'ETHEREUM_SEPOLIA'], { minLength: 2, maxLength: 2 }))
        .map(([walletId, amt, [fromChain, toChain]]) => ({ walletId, action: 'BRIDGE', amount: amt, fromChain, toChain })),
    ),
  };
}

test(
  `property: ${RUNS} generated operations from the schema (queries, mutations, subscriptions; variables of right and wrong types) over POST and GET answer JSON within ${REQUEST_TIMEOUT_MS / 1000} s, never a 5xx, every error with extensions.code, none INTERNAL_ERROR`,
  async () => {
    const schema = buildSchema();
    const sessionOnly = (name: string) => !(ROOT_FIELD_CALLERS[name] ?? ['apiKey']).includes('apiKey');
    const requests = graphqlRequestArbitrary(schema, pools, { rootFieldWeight: (name) => (sessionOnly(name) ? 1 : 4), hints: serviceShapedValues() });
    const transport = fc.oneof(
      { weight: 6, arbitrary: fc.constant<Transport>('POST json') },
      { weight: 3, arbitrary: fc.constant<Transport>('POST graphql-response+json') },
      { weight: 2, arbitrary: fc.constant<Transport>('GET') },
      { weight: 1, arbitrary: fc.constant<Transport>('POST application/graphql') },
    );
    const idempotencyKey = fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('fuzz-idem-1', 'fuzz-idem-2') });
    const figures = new Figures();

    await fc.assert(
      fc.asyncProperty(requests, transport, idempotencyKey, async (r, t, idem) => {
        const label = `${t} ${JSON.stringify({ query: r.query, variables: r.variables, operationName: r.operationName })}`;
        let answer: Sent;
        try {
          answer = await send(r, t, idem);
        } catch (e) {
          throw new Error(`${label}\n→ no answer: ${(e as Error).name} ${(e as Error).message}`, { cause: e });
        }
        const { problems, codes } = judge(answer);
        figures.record(r, answer, codes);
        if (problems.length) throw new Error(`${label}\n→ HTTP ${answer.status} ${answer.contentType}: ${problems.join('; ')}\n${answer.text.slice(0, 2000)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );

    console.log(figures.print());
    // And afterwards the service still answers a plain query.
    const after = await srv.gql('{ yields(asset: USDC) { best { apy } } }', undefined, key);
    expect({ status: after.status, errors: after.body.errors }).toEqual({ status: 200, errors: undefined });
    // The run reached the resolvers, not only the validator: some answers carry data, and every API root field was tried.
    expect(figures.outcomes.get('OK (data, no errors)') ?? 0).toBeGreaterThan(0);
    if (RUNS >= 150) {
      const apiFields = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())].filter(
        (f) => !sessionOnly(f),
      );
      expect(apiFields.filter((f) => !figures.rootFields.has(f))).toEqual([]);
    }
  },
  60_000 + RUNS * 500,
);

/** What the fuzzing found, kept as plain examples. */
describe('found by the fuzzing', () => {
  const post = (body: unknown, accept: string) =>
    fetch(`${srv.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: accept },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });

  test('error: a subscription whose root field has @include(if: $var) is a request error on every HTTP path (graphql-js throws it from validation; the fast path answered 500 INTERNAL_ERROR)', async () => {
    const body = { query: 'subscription($b: Boolean!) { intentUpdated(id: "intent_0") @include(if: $b) { id } }', variables: { b: true } };
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await post(body, accept);
      expect(res.status).toBeLessThan(500);
      const errors = ((await res.json()) as { errors: { extensions: { code: string } }[] }).errors;
      expect(errors.map((e) => e.extensions.code)).not.toContain('INTERNAL_ERROR');
      expect(errors.length).toBeGreaterThan(0);
    }
  });

  test('error: a subscription POSTed without text/event-stream in Accept answers JSON BAD_REQUEST before it starts (yoga answered a bare 406 after opening the stream), and costs nothing', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const wallet = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'fuzz-sub' } });
    const intent = await srv.rest('POST', '/v1/intents', { key: acct.key, body: { walletId: wallet.body.id, action: 'lend', amount: '1' } });
    const before = (await srv.admin.usage(acct.accountId)).credits.used;
    for (const accept of ['application/graphql-response+json', 'application/json, application/graphql-response+json']) {
      const res = await fetch(`${srv.url}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${acct.key}`, 'Content-Type': 'application/json', Accept: accept },
        body: JSON.stringify({ query: `subscription { intentUpdated(id: "${intent.body.id}") { id status } }` }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/json/);
      const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code).toBe('BAD_REQUEST');
    }
    expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(before);
    // With text/event-stream the same subscription streams (the snapshot, then it completes: the intent is final).
    const sse = await fetch(`${srv.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${acct.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ query: `subscription { intentUpdated(id: "${intent.body.id}") { id } }` }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(sse.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(await sse.text()).toContain(intent.body.id);
  });
});
