import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * /readyz reports whether the attestation service answers. Its outage delays
 * bridges only (their mints wait and are retried), so the service stays
 * ready: a load balancer must not take it out of rotation for it.
 */
let up: TestServer;
let down: TestServer;

beforeAll(async () => {
  const manifest = JSON.parse(readFileSync(process.env.SANDBOX_MANIFEST!, 'utf8'));
  // a port nothing listens on: the attestation service is out
  manifest.attestationApi = 'http://127.0.0.1:9';
  const path = join(mkdtempSync(join(tmpdir(), 'iris-down-')), 'manifest.json');
  writeFileSync(path, JSON.stringify(manifest));
  [up, down] = await Promise.all([startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! }), startTestServer({ SANDBOX_MANIFEST: path })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([up?.stop(), down?.stop()]);
});

test('behavior: /readyz says the attestation service answers', async () => {
  const r = await up.rest('GET', '/readyz');
  expect(r.status).toBe(200);
  expect(r.body.checks.attestationService).toBe('ok');
});

test('error: with the attestation service out, /readyz still answers 200 (ready) and says it is unreachable', async () => {
  const r = await down.rest('GET', '/readyz');
  expect(r.status).toBe(200);
  expect(r.body.checks.attestationService).toBe('unreachable');
});
