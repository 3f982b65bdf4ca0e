import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The OpenAPI document generates a useful client with tools
 * nobody here wrote. The served /v1/openapi.json goes through
 * openapi-typescript (its Node API) into `paths` types; a small openapi-fetch
 * client written against them must type-check under strict options (apy a
 * number, not `unknown`; a string for it refused; a body with an unknown
 * field refused), and run against the service.
 *
 * openapi-typescript's CommonJS build requires ES-module-only packages,
 * which jest's module runtime cannot load: it runs in a plain Node child
 * process (still its Node API, not the CLI). The client is compiled with the
 * TypeScript compiler API and run from its transpiled output.
 */

const ROOT = resolve(__dirname, '../..');

/**
 * openapi-typescript's Node API: the document in, the types as TypeScript
 * source out. `defaultNonNullable: false`: by default openapi-typescript 7
 * types a property with a `default` as always present, which it undoes for
 * inline request bodies but not for request bodies that are components
 * (openapi-ts/openapi-typescript#2012, open): `chainType`, an intent's
 * `asset` and a policy's `scope` would be required to send. The option keeps
 * them optional, as the document says (nothing in an answer has a default).
 */
const GENERATE = `
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
const [input, output] = process.argv.slice(1);
const ast = await openapiTS(JSON.parse(readFileSync(input, 'utf8')), { defaultNonNullable: false });
writeFileSync(output, astToString(ast));
`;

/** The client a user would write. Every line must type-check but the ones marked @ts-expect-error, which must not. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Rate = paths['/yields']['get']['responses'][200]['content']['application/json']['rates'][number];
type CreateWallet = paths['/wallets']['post']['requestBody']['content']['application/json'];

export const apyIsExactlyNumber: Exactly<Rate['apy'], number> = true;

// @ts-expect-error the document closes the body: an unknown field is refused
export const unknownField: CreateWallet = { userId: 'ada', color: 'red' };

export async function run(baseUrl: string, key: string, userId: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });

  const yields = await client.GET('/yields', { params: { query: { asset: 'USDC' } } });
  if (!yields.data) throw new Error(\`GET /yields answered \${yields.response.status}\`);
  const apy: number = yields.data.rates[0]!.apy;
  // @ts-expect-error apy is a number
  const apyText: string = yields.data.rates[0]!.apy;
  const best = yields.data.best === null ? null : { chain: yields.data.best.chain, apy: yields.data.best.apy.toFixed(2) };

  const body: CreateWallet = { userId, metadata: { source: 'generated client' } };
  const idempotency = { header: { 'Idempotency-Key': \`create-\${userId}\` } };
  const created = await client.POST('/wallets', { body, params: idempotency });
  if (!created.data) throw new Error(\`POST /wallets answered \${created.response.status}\`);
  const replayed = await client.POST('/wallets', { body, params: idempotency });
  const exists = await client.POST('/wallets', { body: { userId } });
  const code: string | undefined = exists.error?.error;

  const usage = await client.GET('/usage');
  if (!usage.data) throw new Error(\`GET /usage answered \${usage.response.status}\`);
  const creditLimit: number | null = usage.data.credits.limit;

  return {
    apy,
    apyType: typeof apyText,
    best,
    wallet: { status: created.response.status, id: created.data.id, chains: created.data.chains.length, userId: created.data.userId },
    replayed: replayed.response.headers.get('Idempotent-Replayed'),
    conflict: { status: exists.response.status, code },
    usage: { used: usage.data.credits.used, limit: creditLimit, header: usage.response.headers.get('X-Credits-Remaining') },
  };
}
`;

const STRICT: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // a client as a browser or Node 20 sees it: fetch, Request, Response from the DOM library, no @types
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  // the libraries' own declarations are theirs to check (half the time here); the generated types and the client are checked
  skipLibCheck: true,
};

let srv: TestServer;
let dir: string;

beforeAll(async () => {
  srv = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'generated-client-'));
  // the client resolves openapi-fetch as it would in a project that installed it
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}, 60_000);

afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await srv?.stop();
});

test('behavior: openapi-typescript types from /v1/openapi.json make a strictly type-checked openapi-fetch client (rates[0].apy a number) that works against the service', async () => {
  const res = await fetch(`${srv.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  writeFileSync(join(dir, 'openapi.json'), await res.text());

  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', GENERATE, join(dir, 'openapi.json'), join(dir, 'api.ts')], {
    cwd: ROOT,
    timeout: 30_000,
  });
  const generated = readFileSync(join(dir, 'api.ts'), 'utf8');
  expect(generated).toMatch(/export interface paths/);
  writeFileSync(join(dir, 'client.ts'), CLIENT);

  // run it first: the transpiled client, its imports resolved from this repository. (Type-checking
  // blocks the event loop for seconds, past the service's 5 s keep-alive: a request after it could
  // meet a pooled socket the server has closed meanwhile.)
  const acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
  const js = ts.transpileModule(CLIENT, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const mod: { exports: { run?: (baseUrl: string, key: string, userId: string) => Promise<any> } } = { exports: {} };
  new Function('require', 'module', 'exports', js)(require, mod, mod.exports);
  const out = await mod.exports.run!(`${srv.url}/v1`, acct.key, 'typed-client');
  expect(typeof out.apy).toBe('number');
  expect(out.apyType).toBe('number');
  expect(out.best).toEqual({ chain: expect.any(String), apy: expect.stringMatching(/^\d+\.\d{2}$/) });
  expect(out.wallet).toEqual({ status: 201, id: expect.stringMatching(/^svc_wallet_[0-9a-f]{32}$/), chains: expect.any(Number), userId: 'typed-client' });
  expect(out.replayed).toBe('true');
  expect(out.conflict).toEqual({ status: 409, code: 'WALLET_ALREADY_EXISTS' });
  // three charged answers: the yields read and the two 201s (the replay charges like any 2xx); the 409 and the usage call are free
  expect(out.usage).toEqual({ used: 3, limit: 100, header: '97' });

  // the same file type-checks under strict options: 0 diagnostics. That includes the refused lines: an
  // expect-error directive on a line without an error is itself a diagnostic (TS2578), so apy typed `any`, or
  // an open request body, would fail here, as apy typed `unknown` fails `apyIsExactlyNumber`.
  const program = ts.createProgram([join(dir, 'client.ts')], STRICT);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(diagnostics).toEqual([]);
}, 60_000);
