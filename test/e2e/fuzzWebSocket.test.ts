import fc from 'fast-check';
import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

/**
 * Property-based fuzzing over WebSocket: graphql-ws on
 * /graphql gets generated connectionParams and subscribe payloads (queries,
 * variables, operation names, extensions) through the real `graphql-ws`
 * client, and generated frame sequences through raw `ws` (not JSON, unknown
 * message types, hostile payloads, subscribe before init, duplicate ids, a
 * second init, binary and invalid UTF-8 frames, a frame past the 64 KB limit,
 * other subprotocols, hostile upgrade headers). Properties: nothing hangs
 * (every case is bounded), the server never closes with an internal error
 * (4500, 1011) or drops the socket without a close frame (1006), a close it
 * decides is a graphql-ws 44xx code (1009/1007 only for a frame past the
 * limit or not UTF-8, which the WebSocket layer refuses itself), every
 * message it sends is a well-formed graphql-ws message, and every GraphQL
 * error carries `extensions.code`. The server is healthy afterwards.
 * Seeded and bounded in `npm test`; FUZZ_RUNS and FUZZ_SEED go further.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** One case may take this long at most: past it, the property fails as a hang. */
const HANG_MS = 8_000;
const PROTOCOL = 'graphql-transport-ws';

let srv: TestServer;
let key: string;
let wsUrl: string;
beforeAll(async () => {
  srv = await startTestServer();
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
  wsUrl = `${srv.url.replace('http', 'ws')}/graphql`;
}, 60_000);
afterAll(() => srv?.stop());

/** Rejects after HANG_MS: a case that does not settle by then is a hang. */
function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle within ${HANG_MS} ms`)), HANG_MS);
  });
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

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
      '',
      ' ',
      '0',
      'NaN',
      '__proto__',
      'constructor',
      'svc_wallet_00000000000000000000000000000000',
    ),
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ minLength: 1000, maxLength: 3000 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'id', 'userId', 'walletId', 'amount', 'authorization', 'query', 'input'),
        fc.string({ maxLength: 8 }),
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

const hostileObject = fc.dictionary(
  fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'i', 'u', 'w', 'input', 'authorization'), fc.string({ maxLength: 8 })),
  hostile,
  { maxKeys: 4 },
);

/** Real operations, subscriptions included, with the variable names the generated variables use. */
const OPERATIONS = [
  '{ yields(asset: USDC) { best { apy } } }',
  'query($u: String!) { wallet(userId: $u) { id } }',
  'query($id: ID!) { walletById(id: $id) { id } }',
  'query($w: ID!) { balances(walletId: $w) { totalValueUsd } }',
  'query($id: ID!) { intent(id: $id) { id status } }',
  'query($w: ID!, $f: Int, $a: String) { intents(walletId: $w, first: $f, after: $a) { edges { cursor } } }',
  'subscription($id: ID!) { intentUpdated(id: $id) { status } }',
  'subscription { intentUpdated(id: "intent_00000000000000000000000000000000") { status } }',
  'subscription S($id: ID!) { a: intentUpdated(id: $id) { status } b: intentUpdated(id: $id) { status } }',
  'mutation($i: CreateWalletInput!) { createWallet(input: $i) { id } }',
  'mutation($w: ID!) { fundDemoWallet(walletId: $w) { txHash } }',
  'mutation($i: CreateIntentInput!) { createIntent(input: $i) { id } }',
];

/** A query document: a real one, a real one with bytes spliced in, deep nesting, many aliases, or noise. */
const queryText = fc.oneof(
  fc.constantFrom(...OPERATIONS),
  fc
    .tuple(fc.constantFrom(...OPERATIONS), fc.nat(), fc.string({ unit: 'grapheme', maxLength: 6 }))
    .map(([q, at, junk]) => q.slice(0, at % q.length) + junk + q.slice(at % q.length)),
  fc.integer({ min: 1, max: 400 }).map((n) => `{ ${'yields { best { '.repeat(n)}apy${' } }'.repeat(n)} }`),
  fc.integer({ min: 1, max: 300 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: yields { best { apy } }`).join(' ')} }`),
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    'subscription',
    'query { __typename }',
    '{ __schema { types { name } } }',
    'fragment F on Query { yields { best { apy } } } { ...F ...F }',
    '{ ...F } fragment F on Query { ...F }',
  ),
  fc.string({ maxLength: 200 }),
);

const variableValues = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom('u', 'id', 'w', 'a', 'f', 'i'), fc.oneof(hostile, hostileObject), { maxKeys: 4 }),
  fc.record({ i: fc.record({ userId: fc.string({ maxLength: 40 }) }) }),
);

const authorization = fc.oneof(
  fc.constant(() => `Bearer ${key}`),
  fc.constant(() => key),
  fc.constant(() => `Bearer ${key.slice(0, -1)}`),
  fc.constant(() => `Bearer ${ADMIN_TOKEN}`),
  fc.constant(() => `bearer  ${key} `),
  fc.string({ maxLength: 80 }).map((s) => () => s),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => () => `Bearer ${s}`),
);

/** connectionParams the client sends: a good or broken key, a non-string authorization, or any object. */
const connectionParams = fc.oneof(
  fc.constant(undefined),
  authorization.map((a) => () => ({ authorization: a() })),
  hostile.map((v) => () => ({ authorization: v })),
  hostileObject.map((o) => () => o),
  fc.tuple(authorization, hostileObject).map(([a, o]) => () => ({ ...o, authorization: a() })),
);

type Closed = { code: number; reason: string };
interface ClientOutcome {
  closed?: Closed;
  results: ExecutionResult[];
  errors: unknown[];
  completed: boolean;
}

/** One operation through the real graphql-ws client; resolves once it completes, errors, or the socket closes. */
function viaClient(
  params: (() => Record<string, unknown>) | undefined,
  payload: { query: string; variables?: Record<string, unknown>; operationName?: string; extensions?: Record<string, unknown> },
): Promise<ClientOutcome> {
  const outcome: ClientOutcome = { results: [], errors: [], completed: false };
  let client: Client | undefined;
  const done = new Promise<void>((resolve) => {
    client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: params,
      lazy: true,
      retryAttempts: 0,
      on: {
        closed: (e) => {
          const ev = e as { code?: number; reason?: string };
          outcome.closed = { code: ev.code ?? -1, reason: String(ev.reason ?? '') };
          resolve();
        },
      },
    });
    client.subscribe(payload as never, {
      next: (r) => {
        outcome.results.push(r as ExecutionResult);
        // a live subscription of an intent that never ends: one snapshot is enough
        if (payload.query.trim().startsWith('subscription') && outcome.results.length >= 1) resolve();
      },
      error: (e) => {
        outcome.errors.push(e);
        resolve();
      },
      complete: () => {
        outcome.completed = true;
        resolve();
      },
    });
  });
  return bounded(done, `graphql-ws ${JSON.stringify(payload).slice(0, 120)}`)
    .then(() => outcome)
    .finally(() => client?.dispose());
}

/** The graphql-ws close codes the server may decide (4400 bad request … 4429 too many inits / sockets); never 4500, 1011 or 1006. */
const isProtocolRefusal = (code: number): boolean => code >= 4400 && code <= 4499;

function expectCodes(errors: readonly unknown[] | undefined, label: string): void {
  for (const e of errors ?? []) expect({ label, code: typeof (e as { extensions?: { code?: unknown } }).extensions?.code }).toEqual({ label, code: 'string' });
}

function expectClientOutcome(o: ClientOutcome, label: string): void {
  if (o.closed && !o.completed && o.results.length === 0 && o.errors.length === 0) {
    // the server closed the socket: only with a graphql-ws refusal (the client's own 1000 on dispose never gets here)
    expect({ label, code: isProtocolRefusal(o.closed.code) ? 'a 44xx refusal' : o.closed.code }).toEqual({ label, code: 'a 44xx refusal' });
  }
  for (const r of o.results) {
    expect({ label, shape: r.data !== undefined || r.errors !== undefined }).toEqual({ label, shape: true });
    expectCodes(r.errors, label);
  }
  // an `error` message carries GraphQL errors; a CloseEvent (socket refused mid-way) must be a 44xx refusal
  for (const e of o.errors) {
    if (Array.isArray(e)) expectCodes(e, label);
    else {
      const code = (e as { code?: number }).code ?? -1;
      expect({ label, code: isProtocolRefusal(code) ? 'a 44xx refusal' : code }).toEqual({ label, code: 'a 44xx refusal' });
    }
  }
}

test('property: generated connectionParams with the real graphql-ws client: admitted and answered, or refused with a 44xx close, never a hang or an internal error', async () => {
  await fc.assert(
    fc.asyncProperty(connectionParams, async (params) => {
      const o = await viaClient(params, { query: '{ yields(asset: USDC) { best { apy } } }' });
      const label = `connectionParams ${JSON.stringify(params?.())?.slice(0, 200)} → ${JSON.stringify(o).slice(0, 300)}`;
      expectClientOutcome(o, label);
      // the key as documented is admitted and answered; a broken or foreign credential never reads anything
      const auth = params?.().authorization;
      if (auth === `Bearer ${key}`)
        expect({ label, completed: o.completed, data: o.results.some((r) => r.data != null) }).toEqual({ label, completed: true, data: true });
      const broken = typeof auth !== 'string' || !auth.includes(key) || auth.includes(key.slice(0, -1) + ' ') || auth.endsWith(key.slice(0, -1));
      if (broken) expect({ label, data: o.results.some((r) => r.data != null) }).toEqual({ label, data: false });
    }),
    { numRuns: RUNS * 3, seed: SEED },
  );
});

test('property: generated subscribe payloads (queries, variables, operation names, extensions) over an admitted socket: answered with data or errors carrying extensions.code, or a 44xx close; never a hang', async () => {
  await fc.assert(
    fc.asyncProperty(
      queryText,
      variableValues,
      fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('S', '__proto__', '')), { nil: undefined }),
      fc.option(hostileObject, { nil: undefined }),
      async (query, variables, operationName, extensions) => {
        const payload = { query, variables: variables as Record<string, unknown> | undefined, operationName, extensions };
        const o = await viaClient(() => ({ authorization: `Bearer ${key}` }), payload);
        expectClientOutcome(o, `${JSON.stringify(payload).slice(0, 300)} → ${JSON.stringify(o).slice(0, 300)}`);
      },
    ),
    { numRuns: RUNS * 6, seed: SEED },
  );
});

/** One frame a raw client may send. */
type Frame = { text: string } | { binary: Uint8Array } | { invalidUtf8: Uint8Array } | { oversize: number };

const subscribeMessage = (id: unknown, payload: unknown) => JSON.stringify({ id, type: 'subscribe', payload });
const frame: fc.Arbitrary<Frame> = fc.oneof(
  fc.constant<Frame>({ text: JSON.stringify({ type: 'connection_init', payload: { authorization: 'KEY' } }) }),
  hostile.map((p): Frame => ({ text: JSON.stringify({ type: 'connection_init', payload: p }) })),
  fc
    .tuple(fc.oneof(fc.constantFrom('1', 'a', ''), hostile), queryText, variableValues)
    .map(([id, query, variables]): Frame => ({ text: subscribeMessage(id, { query, variables }) })),
  fc.tuple(fc.constantFrom('1', '2'), hostile).map(([id, payload]): Frame => ({ text: subscribeMessage(id, payload) })),
  fc.constantFrom('1', '2', 'x').map((id): Frame => ({ text: subscribeMessage(id, { query: '{ yields(asset: USDC) { best { apy } } }' }) })),
  fc
    .tuple(
      fc.oneof(fc.constantFrom('1', '2'), hostile),
      fc.constantFrom('complete', 'ping', 'pong', 'next', 'error', 'connection_ack', 'subscribe', 'unknown', 'CONNECTION_INIT', ''),
    )
    .map(([id, type]): Frame => ({ text: JSON.stringify({ id, type }) })),
  fc.tuple(fc.constantFrom('ping', 'pong'), hostile).map(([type, payload]): Frame => ({ text: JSON.stringify({ type, payload }) })),
  hostile.map((v): Frame => ({ text: JSON.stringify(v) ?? 'null' })),
  fc.string({ maxLength: 100 }).map((s): Frame => ({ text: s })),
  fc.uint8Array({ maxLength: 100 }).map((b): Frame => ({ binary: b })),
  fc.uint8Array({ minLength: 1, maxLength: 20 }).map((b): Frame => ({ invalidUtf8: Uint8Array.from([0xff, 0xfe, ...b]) })),
  fc.integer({ min: 65 * 1024, max: 200 * 1024 }).map((n): Frame => ({ oversize: n })),
);

/** What the server sent and how the socket ended. */
interface RawOutcome {
  messages: string[];
  closedBy?: 'server' | 'us';
  code?: number;
  errored?: string;
}

/** A raw socket: the upgrade with `protocols` and `headers`, the frames one after another, a short wait, then our close. */
function viaRaw(protocols: string[], headers: Record<string, string>, frames: Frame[]): Promise<RawOutcome> {
  const out: RawOutcome = { messages: [] };
  return bounded(
    new Promise<RawOutcome>((resolve) => {
      const ws = new WebSocket(wsUrl, protocols, { headers });
      let closing = false;
      ws.on('message', (data) => out.messages.push(data.toString()));
      ws.on('unexpected-response', (_req, res) => {
        out.errored = `upgrade refused ${res.statusCode}`;
        res.resume();
        resolve(out);
      });
      ws.on('error', (e) => {
        out.errored ??= e.message;
      });
      ws.on('close', (code) => {
        out.code = code;
        out.closedBy ??= closing ? 'us' : 'server';
        resolve(out);
      });
      ws.on('open', async () => {
        for (const f of frames) {
          if (ws.readyState !== WebSocket.OPEN) break;
          if ('text' in f) ws.send(f.text.replace('"KEY"', JSON.stringify(`Bearer ${key}`)));
          else if ('binary' in f) ws.send(Buffer.from(f.binary), { binary: true });
          else if ('invalidUtf8' in f) ws.send(Buffer.from(f.invalidUtf8), { binary: false });
          else ws.send('x'.repeat(f.oversize));
          await new Promise((r) => setTimeout(r, 5));
        }
        await new Promise((r) => setTimeout(r, 150));
        closing = true;
        if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      });
    }),
    `raw frames ${JSON.stringify(frames).slice(0, 200)}`,
  );
}

const MESSAGE_TYPES = new Set(['connection_ack', 'next', 'error', 'complete', 'ping', 'pong']);

test('property: raw graphql-ws frames (malformed, out of order, binary, invalid UTF-8, oversize; other subprotocols; hostile upgrade headers): only well-formed messages back, closes are 44xx (1009/1007 for an oversize or non-UTF-8 frame), never 4500, 1011, 1006 or a hang', async () => {
  const protocols: fc.Arbitrary<string[]> = fc.oneof(
    fc.constant<string[]>([PROTOCOL]),
    fc.constantFrom<string[]>([], ['graphql-ws'], ['GRAPHQL-TRANSPORT-WS'], [PROTOCOL, 'graphql-ws'], ['x']),
  );
  const headerValue = fc.string({ maxLength: 60 }).map((s) => [...s].filter((ch) => ch >= ' ' && ch <= '~').join(''));
  const upgradeHeaders = fc.record(
    {
      Origin: fc.oneof(headerValue, fc.constantFrom('null', 'http://evil.example')),
      Cookie: fc.oneof(
        headerValue,
        headerValue.map((v) => `session=${v}`),
      ),
      Authorization: fc.oneof(headerValue, fc.constant('Bearer KEY')),
    },
    { requiredKeys: [] },
  );
  // half the sequences start with a good connection_init, so what follows meets an admitted socket
  const sequences = fc
    .tuple(fc.boolean(), fc.array(frame, { minLength: 1, maxLength: 6 }))
    .map(([initFirst, rest]): Frame[] =>
      initFirst ? [{ text: JSON.stringify({ type: 'connection_init', payload: { authorization: 'KEY' } }) }, ...rest] : rest,
    );
  await fc.assert(
    fc.asyncProperty(protocols, upgradeHeaders, sequences, async (protocol, headers, frames) => {
      const hdrs = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('KEY', key)]));
      const o = await viaRaw(protocol, hdrs, frames);
      const label = `${JSON.stringify(protocol)} ${JSON.stringify(headers)} ${JSON.stringify(frames).slice(0, 400)} → ${JSON.stringify(o).slice(0, 400)}`;
      expect({ label, errored: o.errored?.startsWith('upgrade refused 5') ?? false }).toEqual({ label, errored: false });
      // asked only for subprotocols it does not speak, the server picks none: the client library itself then fails the handshake (RFC 6455 4.1)
      const noSubprotocol = o.errored === 'Server sent no subprotocol' && !protocol.includes(PROTOCOL);
      if (o.closedBy === 'server' && !noSubprotocol) {
        const sentOversize = frames.some((f) => 'oversize' in f);
        const sentInvalidUtf8 = frames.some((f) => 'invalidUtf8' in f);
        const allowed = isProtocolRefusal(o.code ?? -1) || (o.code === 1009 && sentOversize) || (o.code === 1007 && sentInvalidUtf8);
        expect({ label, close: allowed ? 'allowed' : o.code }).toEqual({ label, close: 'allowed' });
      }
      for (const m of o.messages) {
        const msg = JSON.parse(m) as { type: string; payload?: unknown };
        expect({ label, type: MESSAGE_TYPES.has(msg.type) }).toEqual({ label, type: true });
        if (msg.type === 'error') {
          expect({ label, array: Array.isArray(msg.payload) }).toEqual({ label, array: true });
          expectCodes(msg.payload as unknown[], label);
        }
        if (msg.type === 'next') expectCodes((msg.payload as ExecutionResult).errors, label);
      }
    }),
    { numRuns: RUNS * 6, seed: SEED },
  );
});

test('error: a client sending a message type only servers send (connection_ack, next, error) is closed with 4400 Bad Request, not 4500 (found by the property above)', async () => {
  for (const type of ['connection_ack', 'next', 'error']) {
    for (const initFirst of [false, true]) {
      const init: Frame[] = initFirst ? [{ text: JSON.stringify({ type: 'connection_init', payload: { authorization: 'KEY' } }) }] : [];
      const o = await viaRaw([PROTOCOL], {}, [...init, { text: JSON.stringify({ id: '1', type, payload: { data: null } }) }]);
      expect({ type, initFirst, closedBy: o.closedBy, code: o.code }).toEqual({ type, initFirst, closedBy: 'server', code: 4400 });
    }
  }
});

test('behavior: after the WebSocket fuzzing the server is healthy: /healthz, and a graphql-ws query is answered', async () => {
  expect((await srv.rest('GET', '/healthz')).status).toBe(200);
  const o = await viaClient(() => ({ authorization: `Bearer ${key}` }), { query: '{ yields(asset: USDC) { best { apy } } }' });
  expect(o.completed).toBe(true);
  expect((o.results[0]?.data as { yields: { best: { apy: number } } }).yields.best.apy).toBeGreaterThan(0);
});
