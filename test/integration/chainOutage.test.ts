import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startTestServer, type Json, type TestServer } from '../helpers/server';

/**
 * A chain whose RPC hangs: the service still
 * starts, /readyz answers 503 naming the chain, and reads that need it answer
 * 503 within the RPC timeout (RPC_TIMEOUT_MS, 1.5 s here) instead of hanging;
 * payments are offered on the networks that answer.
 */
let hang: Server;
const sockets: Socket[] = [];
let srv: TestServer;
let key: string;

beforeAll(async () => {
  // accepts connections and never answers a byte
  hang = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  const port = (hang.address() as { port: number }).port;
  const manifest = JSON.parse(readFileSync(process.env.SANDBOX_MANIFEST!, 'utf8'));
  manifest.chains['ethereum-sepolia'].rpcUrl = `http://127.0.0.1:${port}`;
  const path = join(mkdtempSync(join(tmpdir(), 'outage-')), 'manifest.json');
  writeFileSync(path, JSON.stringify(manifest));
  srv = await startTestServer({ SANDBOX_MANIFEST: path, RPC_TIMEOUT_MS: '1500' });
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  for (const s of sockets) s.destroy();
  await new Promise((r) => hang?.close(r));
});

test('error: /readyz answers 503 naming the chain that does not answer, within the RPC timeout', async () => {
  const started = Date.now();
  const r = await srv.rest('GET', '/readyz');
  expect(r.status).toBe(503);
  expect(r.body.details.reason).toContain('ethereum-sepolia');
  expect(Date.now() - started).toBeLessThan(10_000);
}, 30_000);

test('error: a read that needs the hanging chain answers 503 with the chain named, within the RPC timeout, never hanging', async () => {
  const started = Date.now();
  const r = await srv.rest('GET', '/v1/yields', { key });
  expect(r.status).toBe(503);
  expect(['NETWORK_ERROR', 'TIMEOUT', 'SERVICE_UNAVAILABLE']).toContain(r.body.error);
  expect(r.body.details.chain).toBe('ethereum-sepolia');
  expect(Date.now() - started).toBeLessThan(10_000);
}, 30_000);

test('behavior: payments are offered on the networks that answered at start (base-sepolia), not on the hanging one', async () => {
  const r = await fetch(`${srv.url}/v1/balances/svc_wallet_00000000000000000000000000000000`);
  expect(r.status).toBe(402);
  const offer = JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString('utf8')) as Json;
  expect(offer.accepts.map((a: Json) => a.network)).toEqual(['eip155:84532']);
});
