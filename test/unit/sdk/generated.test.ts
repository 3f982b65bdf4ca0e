import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The SDK's generated sources are committed (sdk/src/generated): the OpenAPI
 * types from the document the service serves, and the typed GraphQL documents
 * from schema.graphql. Generating them again must give the same text, file
 * for file: otherwise the SDK is stale and `npm run sdk:generate` rewrites it.
 *
 * The generator runs in a child Node process (openapi-typescript and the
 * codegen CLI load ES modules, which jest's module runtime cannot).
 */

const ROOT = resolve(__dirname, '../../..');
const COMMITTED = join(ROOT, 'sdk/src/generated');

/** Every file under `root`, as paths relative to it. */
function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(root, path) : [relative(root, path)];
  });
}

let out: string;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'sdk-generated-'));
  await promisify(execFile)(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sdk/scripts/generate.ts', '--out', out], {
    cwd: ROOT,
    timeout: 150_000,
  });
}, 180_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('behavior: regenerating sdk/src/generated gives the committed files, byte for byte (else run npm run sdk:generate)', () => {
  const fresh = filesUnder(out).sort();
  expect(filesUnder(COMMITTED).sort()).toEqual(fresh);
  expect(fresh).toEqual(expect.arrayContaining(['openapi.ts', join('graphql', 'graphql.ts'), join('graphql', 'gql.ts')]));
  for (const file of fresh) {
    const committed = readFileSync(join(COMMITTED, file), 'utf8');
    const regenerated = readFileSync(join(out, file), 'utf8');
    if (committed !== regenerated) throw new Error(`sdk/src/generated/${file} is stale: run npm run sdk:generate`);
  }
});

test('behavior: the committed types are the current ones: an operation of the document and the subscription document are in them', () => {
  const openapi = readFileSync(join(COMMITTED, 'openapi.ts'), 'utf8');
  expect(openapi).toMatch(/export interface paths \{/);
  expect(openapi).toContain('"/intents/{intentId}": {');
  const graphql = readFileSync(join(COMMITTED, 'graphql/graphql.ts'), 'utf8');
  expect(graphql).toContain('export const IntentUpdatedDocument = new TypedDocumentString(');
});
