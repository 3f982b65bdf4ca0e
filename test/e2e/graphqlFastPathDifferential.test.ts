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
 * (GRAPHQL_FAST_PATH=off); status, content type and body must be the same,
 * ids, addresses, timestamps and request ids aside. Mutations run only where
 * they cannot race an engine (wallet creation; anything over GET is refused).
 */
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
  method: 'GET' | 'POST';
  /** Query string for GET (without `?`). */
  search?: string;
  contentType?: string;
  accept?: string;
  body?: string;
}

interface Answer {
  status: number;
  type: string | null;
  allow: string | null;
  body: string;
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

const JSON_TYPE = 'application/json';
const STRICT = 'application/graphql-response+json';

const post = (label: string, payload: unknown, accept?: string, contentType = JSON_TYPE): Shape => ({
  label,
  method: 'POST',
  contentType,
  accept,
  body: typeof payload === 'string' ? payload : JSON.stringify(payload),
});
const get = (label: string, params: Record<string, string>, accept?: string): Shape => ({ label, method: 'GET', search: new URLSearchParams(params).toString(), accept });

/** The request shapes the e2e suite sends, and the ways a client gets them wrong. */
function handShapes(): Shape[] {
  const wallet = 'query W($u: String!) { wallet(userId: $u) { userId chains } }';
  const shapes: Shape[] = [];
  for (const accept of [undefined, JSON_TYPE, STRICT, '*/*', `${STRICT}, ${JSON_TYPE};q=0.9`, `${JSON_TYPE}; charset=utf-8`, 'text/plain']) {
    const a = accept ?? 'none';
    shapes.push(
      post(`POST query, Accept ${a}`, { query: wallet, variables: { u: 'diff-u0' } }, accept),
      post(`POST unknown wallet, Accept ${a}`, { query: wallet, variables: { u: 'nobody' } }, accept),
      post(`POST parse error, Accept ${a}`, { query: '{ wallet(userId: "x") { ' }, accept),
      post(`POST validation error, Accept ${a}`, { query: '{ noSuchField }' }, accept),
      post(`POST missing variable, Accept ${a}`, { query: wallet }, accept),
      post(`POST variable of the wrong type, Accept ${a}`, { query: wallet, variables: { u: 42 } }, accept),
      post(`POST variables not an object, Accept ${a}`, { query: wallet, variables: '["u"]' }, accept),
      post(`POST no query, Accept ${a}`, { variables: {} }, accept),
      post(`POST query not a string, Accept ${a}`, { query: 7 }, accept),
      post(`POST two operations without operationName, Accept ${a}`, { query: 'query A { __typename } query B { __typename }' }, accept),
      post(`POST operationName naming none, Accept ${a}`, { query: 'query A { __typename }', operationName: 'Z' }, accept),
      post(`POST malformed JSON, Accept ${a}`, '{"query": ', accept),
      post(`POST array body, Accept ${a}`, '[]', accept),
      get(`GET query, Accept ${a}`, { query: wallet, variables: '{"u":"diff-u1"}' }, accept),
      get(`GET parse error, Accept ${a}`, { query: '{ wallet(' }, accept),
      get(`GET mutation, Accept ${a}`, { query: 'mutation { createWallet(input: {userId: "diff-over-get"}) { id } }' }, accept),
      get(`GET bad variables JSON, Accept ${a}`, { query: wallet, variables: '{u:' }, accept),
      get(`GET no query, Accept ${a}`, {}, accept),
    );
  }
  shapes.push(
    post('POST application/graphql body', '{ __typename }', JSON_TYPE, 'application/graphql'),
    post('POST JSON with charset parameter', { query: '{ __typename }' }, JSON_TYPE, 'application/json; charset=utf-8'),
    post('POST upper-case media type', { query: '{ __typename }' }, JSON_TYPE, 'Application/JSON'),
    post('POST createWallet mutation', { query: 'mutation { createWallet(input: {userId: "diff-created"}) { userId chains } }' }, JSON_TYPE),
    post('POST createWallet again (conflict)', { query: 'mutation { createWallet(input: {userId: "diff-created"}) { userId } }' }, STRICT),
    post('POST mutation with a validation error', { query: 'mutation { createWallet(input: {nope: 1}) { id } }' }, STRICT),
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
      return get(`generated #${i} GET`, { query: r.query, variables: JSON.stringify(r.variables), ...(r.operationName ? { operationName: r.operationName } : {}) }, STRICT);
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
  for (const shape of corpus) {
    const [a, b] = [await send(fast, shape), await send(bare, shape)];
    if (a.status !== b.status || a.type !== b.type || a.allow !== b.allow || a.body !== b.body) {
      differences.push(`${shape.label}\n  fast path: ${a.status} ${a.type} allow=${a.allow} ${a.body.slice(0, 300)}\n  yoga:      ${b.status} ${b.type} allow=${b.allow} ${b.body.slice(0, 300)}`);
    }
  }
  console.log(`graphql fast path vs yoga ${YOGA_VERSION}: ${corpus.length} requests (${generated.length} generated), ${differences.length} differences`);
  expect(differences).toEqual([]);
}, 240_000);
