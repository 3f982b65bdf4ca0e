import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';
import { graphqlRequestArbitrary, type GeneratedRequest } from '../helpers/graphqlArbitraries';
import { buildSchema } from '../../src/graphql/schema';

/**
 * The GraphQL fast path (src/graphql/fastPath.ts) answers the common
 * GraphQL-over-HTTP requests before yoga, by yoga's rules copied by hand.
 * Nothing but this test keeps the copy equal: every request of a corpus (the
 * fuzz generator's documents and the request shapes the e2e suite sends) goes
 * to a service with the fast path and to one where yoga answers everything
 * (GRAPHQL_FAST_PATH=off); status, content type, Allow and body must be the
 * same, ids, addresses, timestamps and request ids aside. The hand-written
 * shapes also carry the answer decided for them (docs/api-guide.md, "GraphQL
 * over HTTP"), so both sides agreeing on a wrong answer fails too. Mutations
 * run only where they cannot race an engine (wallet creation; anything over
 * GET is refused). graphql-yoga's minor version is pinned in package.json: an
 * upgrade is a deliberate change that this test checks.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed version, read as yoga ships it
const YOGA_VERSION: string = require('graphql-yoga/package.json').version;
const GENERATED = Number(process.env.GRAPHQL_DIFF_RUNS ?? 300);

interface Side {
  srv: TestServer;
  key: string;
}
let fast: Side;
let bare: Side;

async function side(env: Record<string, string>): Promise<Side> {
  const srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, ...env });
  const { key } = await srv.admin.createAccount({ plan: 'enterprise' });
  for (const userId of ['diff-u0', 'diff-u1']) {
    const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId, email: 'diff@example.com', metadata: { tier: 'gold' } } });
    expect(w.status).toBe(201);
  }
  return { srv, key };
}

beforeAll(async () => {
  [fast, bare] = await Promise.all([side({}), side({ GRAPHQL_FAST_PATH: 'off' })]);
}, 90_000);
afterAll(async () => {
  await Promise.all([fast?.srv.stop(), bare?.srv.stop()]);
});

/** One HTTP request to /graphql, described independently of the server it goes to. */
interface Shape {
  label: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Query string for GET (without `?`). */
  search?: string;
  contentType?: string;
  accept?: string;
  body?: string;
  /** The decided answer: status, the first error's code (none: no errors), Allow. */
  want?: Want;
}

interface Want {
  status: number;
  code?: string;
  allow?: string;
}

interface Answer {
  status: number;
  type: string | null;
  allow: string | null;
  body: string;
}

/** How an answer differs from the decided one (empty: it does not). */
function unlike(a: Answer, want: Want): string[] {
  let code: string | undefined;
  try {
    code = (JSON.parse(a.body) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code;
  } catch {
    return [`the body is not JSON`];
  }
  const problems: string[] = [];
  if (a.status !== want.status) problems.push(`status ${a.status}, decided ${want.status}`);
  if (code !== want.code) problems.push(`code ${code}, decided ${want.code}`);
  if (a.allow !== (want.allow ?? null)) problems.push(`Allow ${a.allow}, decided ${want.allow ?? null}`);
  if (/originalError|"http"|"stack"/.test(a.body)) problems.push('internals in the body');
  return problems;
}

/** What differs between two servers by construction: ids, addresses, timestamps, request ids. */
function normalize(text: string): string {
  return text
    .replace(/svc_[a-z]+_[A-Za-z0-9]+/g, 'svc_ID')
    .replace(/request_[A-Za-z0-9]+/g, 'request_ID')
    .replace(/0x[0-9a-fA-F]{40}\b/g, '0xADDRESS')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, 'TIMESTAMP');
}

async function send(to: Side, shape: Shape): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${to.key}` };
  if (shape.contentType !== undefined) headers['Content-Type'] = shape.contentType;
  if (shape.accept !== undefined) headers.Accept = shape.accept;
  const url = `${to.srv.url}/graphql${shape.search !== undefined ? `?${shape.search}` : ''}`;
  const res = await fetch(url, { method: shape.method, headers, body: shape.body });
  return { status: res.status, type: res.headers.get('content-type'), allow: res.headers.get('allow'), body: normalize(await res.text()) };
}

const MINUTE_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `shape` sent to the fast path, then to yoga, within one rate-limit minute: each side counts the request in the
 * same one-minute window, so what `usage` answers (rateWindow, history) stays the same on both. A pair the minute
 * boundary cut through leaves the two windows one request apart until that minute ends: it is sent again then.
 */
async function sendPair(shape: Shape): Promise<[Answer, Answer]> {
  for (;;) {
    const left = MINUTE_MS - (Date.now() % MINUTE_MS);
    if (left < 2_000) await sleep(left + 50);
    const minute = Math.floor(Date.now() / MINUTE_MS);
    const pair: [Answer, Answer] = [await send(fast, shape), await send(bare, shape)];
    if (Math.floor(Date.now() / MINUTE_MS) === minute) return pair;
    await sleep(MINUTE_MS - (Date.now() % MINUTE_MS) + 50);
  }
}

const JSON_TYPE = 'application/json';
const STRICT = 'application/graphql-response+json';

const post = (label: string, payload: unknown, accept?: string, contentType = JSON_TYPE, want?: Want): Shape => ({
  label,
  method: 'POST',
  contentType,
  accept,
  body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  want,
});
const get = (label: string, params: Record<string, string>, accept?: string, want?: Want): Shape => ({
  label,
  method: 'GET',
  search: new URLSearchParams(params).toString(),
  accept,
  want,
});

const ok: Want = { status: 200 };
/** Not a well-formed GraphQL request: 400 whatever the answer type. */
const malformed = (code = 'BAD_REQUEST'): Want => ({ status: 400, code });
/** A GraphQL request error (no data): 400 under graphql-response+json, 200 under application/json. */
const requestError = (strict: boolean, code: string): Want => ({ status: strict ? 400 : 200, code });

/** `{ v: { v: … 1 } }`, `depth` levels deep. */
function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { v };
  return v;
}

/** The request shapes the e2e suite sends, and the ways a client gets them wrong. */
function handShapes(): Shape[] {
  const wallet = 'query W($u: String!) { wallet(userId: $u) { userId chains } }';
  const shapes: Shape[] = [];
  const tooComplex = `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: wallet(userId: "diff-u0") { id }`).join(' ')} }`;
  // Over the work ceiling (pages of pages, the size from a variable): 10 + 100 × (2 + 3 × (10 + 100 × 3)) units.
  const overCeiling = `query($n: Int) { standingIntents(first: $n) { edges { node { ${['a', 'b', 'c'].map((x) => `${x}: decisions(first: $n) { edges { node { id } } }`).join(' ')} } } } }`;
  for (const accept of [undefined, JSON_TYPE, STRICT, '*/*', `${STRICT}, ${JSON_TYPE};q=0.9`, `${JSON_TYPE}; charset=utf-8`, 'text/plain']) {
    const a = accept ?? 'none';
    // Yoga's rule (and so the fast path's): the last JSON type named wins, read from the end.
    const strict = accept === STRICT || accept === `${STRICT}, ${JSON_TYPE};q=0.9`;
    shapes.push(
      post(`POST query, Accept ${a}`, { query: wallet, variables: { u: 'diff-u0' } }, accept, JSON_TYPE, ok),
      post(`POST unknown wallet, Accept ${a}`, { query: wallet, variables: { u: 'nobody' } }, accept, JSON_TYPE, { status: 200, code: 'WALLET_NOT_FOUND' }),
      post(`POST parse error, Accept ${a}`, { query: '{ wallet(userId: "x") { ' }, accept, JSON_TYPE, requestError(strict, 'GRAPHQL_PARSE_FAILED')),
      post(`POST validation error, Accept ${a}`, { query: '{ noSuchField }' }, accept, JSON_TYPE, requestError(strict, 'GRAPHQL_VALIDATION_FAILED')),
      post(`POST missing variable, Accept ${a}`, { query: wallet }, accept, JSON_TYPE, requestError(strict, 'INVALID_REQUEST')),
      post(`POST variable of the wrong type, Accept ${a}`, { query: wallet, variables: { u: 42 } }, accept, JSON_TYPE, requestError(strict, 'INVALID_REQUEST')),
      post(
        `POST variable used where another type is expected, Accept ${a}`,
        { query: 'query($n: String) { intents(walletId: "svc_wallet_x", first: $n) { pageInfo { hasNextPage } } }' },
        accept,
        JSON_TYPE,
        requestError(strict, 'GRAPHQL_VALIDATION_FAILED'),
      ),
      post(
        `POST unused variable, Accept ${a}`,
        { query: 'query($unused: Int) { __typename }' },
        accept,
        JSON_TYPE,
        requestError(strict, 'GRAPHQL_VALIDATION_FAILED'),
      ),
      post(
        `POST pagination rule broken in a resolver (data present), Accept ${a}`,
        { query: '{ intents(walletId: "svc_wallet_x", first: 500) { pageInfo { hasNextPage } } }' },
        accept,
        JSON_TYPE,
        { status: 200, code: 'INVALID_REQUEST' },
      ),
      post(`POST variables not an object, Accept ${a}`, { query: wallet, variables: '["u"]' }, accept, JSON_TYPE, malformed()),
      post(`POST extensions not an object, Accept ${a}`, { query: wallet, extensions: 3 }, accept, JSON_TYPE, malformed()),
      post(`POST operationName not a string, Accept ${a}`, { query: wallet, operationName: 1 }, accept, JSON_TYPE, malformed()),
      post(`POST unknown parameter, Accept ${a}`, { query: '{ __typename }', foo: 1 }, accept, JSON_TYPE, malformed()),
      post(
        `POST variables nested too deep, Accept ${a}`,
        { query: 'query($m: JSON) { __typename }', variables: { m: nested(40) } },
        accept,
        JSON_TYPE,
        malformed('INVALID_REQUEST'),
      ),
      post(`POST no query, Accept ${a}`, { variables: {} }, accept, JSON_TYPE, malformed()),
      post(`POST query not a string, Accept ${a}`, { query: 7 }, accept, JSON_TYPE, malformed()),
      post(
        `POST two operations without operationName, Accept ${a}`,
        { query: 'query A { __typename } query B { __typename }' },
        accept,
        JSON_TYPE,
        requestError(strict, 'OPERATION_RESOLUTION_FAILURE'),
      ),
      post(
        `POST operationName naming none, Accept ${a}`,
        { query: 'query A { __typename }', operationName: 'Z' },
        accept,
        JSON_TYPE,
        requestError(strict, 'OPERATION_RESOLUTION_FAILURE'),
      ),
      post(
        `POST only fragments, Accept ${a}`,
        { query: 'fragment F on Query { __typename }' },
        accept,
        JSON_TYPE,
        requestError(strict, 'OPERATION_RESOLUTION_FAILURE'),
      ),
      post(`POST malformed JSON, Accept ${a}`, '{"query": ', accept, JSON_TYPE, malformed()),
      post(`POST array body, Accept ${a}`, '[]', accept, JSON_TYPE, malformed()),
      post(`POST string body, Accept ${a}`, '"{ __typename }"', accept, JSON_TYPE, malformed()),
      // Only an Accept naming text/event-stream gets a subscription (SSE, yoga's); none of these does.
      post(`POST subscription, Accept ${a}`, { query: 'subscription { intentUpdated(id: "intent_0") { id } }' }, accept, JSON_TYPE, malformed()),
      post(`POST refused before it runs (too complex), Accept ${a}`, { query: tooComplex }, accept, JSON_TYPE, requestError(strict, 'QUERY_TOO_COMPLEX')),
      post(
        `POST refused before it runs (over the cost ceiling), Accept ${a}`,
        { query: overCeiling, variables: { n: 100 } },
        accept,
        JSON_TYPE,
        requestError(strict, 'QUERY_TOO_COMPLEX'),
      ),
      get(
        `GET refused before it runs (over the cost ceiling), Accept ${a}`,
        { query: overCeiling, variables: '{"n":100}' },
        accept,
        requestError(strict, 'QUERY_TOO_COMPLEX'),
      ),
      // operationCost's refusals carry no extensions.status: 400, the default of a request error.
      post(
        `POST refused before it runs (a field the caller may not read), Accept ${a}`,
        { query: '{ viewer { __typename } }' },
        accept,
        JSON_TYPE,
        requestError(strict, 'FORBIDDEN'),
      ),
      get(`GET query, Accept ${a}`, { query: wallet, variables: '{"u":"diff-u1"}' }, accept, ok),
      get(`GET parse error, Accept ${a}`, { query: '{ wallet(' }, accept, requestError(strict, 'GRAPHQL_PARSE_FAILED')),
      get(`GET mutation, Accept ${a}`, { query: 'mutation { createWallet(input: {userId: "diff-over-get"}) { id } }' }, accept, {
        status: 405,
        code: 'BAD_REQUEST',
        allow: 'POST',
      }),
      get(`GET bad variables JSON, Accept ${a}`, { query: wallet, variables: '{u:' }, accept, malformed()),
      get(`GET bad extensions JSON, Accept ${a}`, { query: wallet, extensions: '[' }, accept, malformed()),
      get(`GET variables not an object, Accept ${a}`, { query: wallet, variables: '"u"' }, accept, malformed()),
      get(
        `GET two operations without operationName, Accept ${a}`,
        { query: 'query A { __typename } query B { __typename }' },
        accept,
        requestError(strict, 'OPERATION_RESOLUTION_FAILURE'),
      ),
      get(`GET no query, Accept ${a}`, {}, accept, malformed()),
    );
  }
  shapes.push(
    post('POST application/graphql body', '{ __typename }', JSON_TYPE, 'application/graphql', ok),
    post('POST JSON with charset parameter', { query: '{ __typename }' }, JSON_TYPE, 'application/json; charset=utf-8', ok),
    post('POST upper-case media type', { query: '{ __typename }' }, JSON_TYPE, 'Application/JSON', ok),
    post('POST form body', `query=${encodeURIComponent('{ __typename }')}`, JSON_TYPE, 'application/x-www-form-urlencoded', ok),
    post(
      'POST form body with bad variables JSON',
      `query=${encodeURIComponent(wallet)}&variables=%7Bu%3A`,
      STRICT,
      'application/x-www-form-urlencoded',
      malformed(),
    ),
    post(
      'POST subscription, Accept application/json, text/event-stream (streams, with yoga)',
      { query: 'subscription { intentUpdated(id: "intent_0") { id } }' },
      `${JSON_TYPE}, text/event-stream`,
    ),
    post('POST createWallet mutation', { query: 'mutation { createWallet(input: {userId: "diff-created"}) { userId chains } }' }, JSON_TYPE, JSON_TYPE, ok),
    post('POST createWallet again (conflict)', { query: 'mutation { createWallet(input: {userId: "diff-created"}) { userId } }' }, STRICT),
    post(
      'POST mutation with a validation error',
      { query: 'mutation { createWallet(input: {nope: 1}) { id } }' },
      STRICT,
      JSON_TYPE,
      requestError(true, 'GRAPHQL_VALIDATION_FAILED'),
    ),
    {
      label: 'PUT',
      method: 'PUT' as Shape['method'],
      contentType: JSON_TYPE,
      accept: JSON_TYPE,
      body: JSON.stringify({ query: '{ __typename }' }),
      want: { status: 405, code: 'BAD_REQUEST', allow: 'GET, POST' },
    },
  );
  return shapes;
}

/** A generated document as the transports the fuzz test uses send it. */
function generatedShape(r: GeneratedRequest, i: number): Shape {
  const payload = { query: r.query, variables: r.variables, ...(r.operationName ? { operationName: r.operationName } : {}) };
  switch (i % 4) {
    case 0:
      return post(`generated #${i} POST json`, payload, JSON_TYPE);
    case 1:
      return post(`generated #${i} POST graphql-response+json`, payload, STRICT);
    case 2:
      return get(
        `generated #${i} GET`,
        { query: r.query, variables: JSON.stringify(r.variables), ...(r.operationName ? { operationName: r.operationName } : {}) },
        STRICT,
      );
    default:
      return post(`generated #${i} POST no Accept`, payload);
  }
}

test(`differential: the fast path answers every request of the corpus as yoga ${YOGA_VERSION} does (status, content type, Allow, body)`, async () => {
  const schema = buildSchema();
  const pools = { ids: [], userIds: ['diff-u0', 'diff-u1'] };
  // Queries only among the generated documents: a generated mutation would run on two engines at their own pace.
  const generated = fc
    .sample(graphqlRequestArbitrary(schema, pools), { numRuns: GENERATED * 3, seed: 20261126 })
    .filter((r) => r.operationType === 'query')
    .slice(0, GENERATED);
  const corpus = [...handShapes(), ...generated.map(generatedShape)];
  const differences: string[] = [];
  const undecided: string[] = [];
  for (const shape of corpus) {
    const [a, b] = await sendPair(shape);
    if (a.status !== b.status || a.type !== b.type || a.allow !== b.allow || a.body !== b.body) {
      differences.push(
        `${shape.label}\n  fast path: ${a.status} ${a.type} allow=${a.allow} ${a.body.slice(0, 300)}\n  yoga:      ${b.status} ${b.type} allow=${b.allow} ${b.body.slice(0, 300)}`,
      );
    }
    const problems = shape.want ? unlike(a, shape.want) : [];
    if (problems.length > 0) undecided.push(`${shape.label}: ${problems.join('; ')}\n  ${a.body.slice(0, 300)}`);
  }
  console.log(
    `graphql fast path vs yoga ${YOGA_VERSION}: ${corpus.length} requests (${generated.length} generated), ${differences.length} differences, ${undecided.length} answers other than decided`,
  );
  expect(differences).toEqual([]);
  expect(undecided).toEqual([]);
}, 240_000);
