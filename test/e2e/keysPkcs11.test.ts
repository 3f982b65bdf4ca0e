import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createPublicClient, http, type Address } from 'viem';
import { ADMIN_TOKEN, startTestServer, TEST_MASTER_KEY, type Json, type TestServer } from '../helpers/server';
import { createSoftToken, softhsmMissing, SOFTHSM_MODULE, type SoftToken } from '../helpers/softhsm';
import type { Pkcs11Token } from '../../src/chain/keys/pkcs11/pkcs11Token';

/**
 * The service on the devnets with KEY_PROVIDER=pkcs11 on a SoftHSM2 token of
 * this file's own: wallets' keys and the service's are generated in the
 * token, every signature is made there (counted by the provider's metrics),
 * a token whose sessions are closed mid-intent is waited for, and a wrong PIN
 * stops `npm start` with exit 2. Skipped, with the reason printed, without
 * the module or the binding.
 */
const missing = softhsmMissing();
if (missing) console.warn(`keysPkcs11: skipped: ${missing}`);
const run = missing ? describe.skip : describe;

let soft: SoftToken;
let srv: TestServer;
let key: string;

const tokenOf = (s: TestServer) => (s.service.keyProvider as unknown as { token: Pkcs11Token }).token;

async function tokenSignatures(outcome: 'signed' | 'error' = 'signed'): Promise<number> {
  const text = await (await fetch(`${srv.url}/metrics`)).text();
  const m = new RegExp(`^key_signatures_total\\{provider="pkcs11",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

async function submit(body: Record<string, unknown>): Promise<string> {
  const r = await srv.rest('POST', '/v1/intents', { key, body });
  if (r.status !== 201) throw new Error(`intent refused: ${r.status} ${r.text}`);
  return r.body.id as string;
}

async function finished(id: string): Promise<Json> {
  for (let i = 0; i < 900; i++) {
    const got = await srv.rest('GET', `/v1/intents/${id}`, { key });
    if (got.body.status === 'completed' || got.body.status === 'failed') return got.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`intent ${id} did not finish`);
}

async function fundedWallet(userId: string, chain: string, amount: string): Promise<{ id: string; address: Address }> {
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId } });
  expect(w.status).toBe(201);
  const m = await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain, asset: 'USDC', address: w.body.address, amount } });
  expect(m.status).toBe(200);
  return { id: w.body.id, address: w.body.address };
}

/** Every transaction hash an intent recorded (steps and their sub-transactions). */
const hashesOf = (intent: Json): string[] => JSON.stringify(intent).match(/0x[0-9a-f]{64}/g) ?? [];

/** Transactions `address` has sent on `chain` (its nonce). */
async function sentBy(chain: string, address: Address): Promise<number> {
  const manifest = (await srv.rest('GET', '/admin/sandbox/manifest', { key: ADMIN_TOKEN })).body;
  const client = createPublicClient({ transport: http(manifest.chains[chain].rpcUrl) });
  return client.getTransactionCount({ address });
}

run('KEY_PROVIDER=pkcs11 on the devnets', () => {
  beforeAll(async () => {
    soft = createSoftToken();
    srv = await startTestServer({ ...soft.env });
    key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
    soft?.remove();
  });

  test('behavior: /readyz reports the key provider; the service keys are in the token', async () => {
    const r = await srv.rest('GET', '/readyz');
    expect(r.status).toBe(200);
    expect(r.body.checks.keyProvider).toEqual({ status: 'ok', provider: 'pkcs11' });
    const listed = execFileSync('pkcs11-tool', [
      '--module',
      SOFTHSM_MODULE,
      '--token-label',
      soft.label,
      '--pin',
      soft.pin,
      '--list-objects',
      '--type',
      'privkey',
    ]).toString();
    for (const label of ['service:gas-tank', 'service:faucet', 'service:settler']) expect(listed).toContain(`label:      ${label}`);
  });

  test('behavior: a lend, a withdraw and a bridge complete, each signature made by the token; the wallet key is in the token, sensitive and never extractable', async () => {
    const w = await fundedWallet('pkcs11-lender', 'base-sepolia', '10');
    const rec = await srv.service.deps.store.walletKeys.get(w.id);
    expect(rec).toEqual({ walletId: w.id, address: w.address, provider: 'pkcs11', keyId: w.id, createdAt: expect.any(String) });
    const listed = execFileSync('pkcs11-tool', [
      '--module',
      SOFTHSM_MODULE,
      '--token-label',
      soft.label,
      '--pin',
      soft.pin,
      '--list-objects',
      '--type',
      'privkey',
    ]).toString();
    expect(listed).toMatch(new RegExp(`label:\\s+${w.id}[\\s\\S]*?Access:\\s+sensitive, always sensitive, never extractable, local`));

    const before = await tokenSignatures();
    const lend = await finished(await submit({ walletId: w.id, action: 'lend', amount: 4, chain: 'base-sepolia' }));
    expect(lend.status).toBe('completed');
    const withdraw = await finished(await submit({ walletId: w.id, action: 'withdraw', amount: '1', asset: 'USDC', chain: 'base-sepolia' }));
    expect(withdraw.status).toBe('completed');
    const bridge = await finished(await submit({ walletId: w.id, action: 'bridge', amount: '2', fromChain: 'base-sepolia', toChain: 'arbitrum-sepolia' }));
    expect(bridge.status).toBe('completed');
    // The wallet's own transactions on base-sepolia (approve, supply, withdraw, approve, burn): each a token signature,
    // besides the gas tank's top-ups and mint relays, token keys too.
    const walletTxs = await sentBy('base-sepolia', w.address);
    expect(walletTxs).toBeGreaterThanOrEqual(4);
    expect((await tokenSignatures()) - before).toBeGreaterThanOrEqual(walletTxs + 1);
  }, 180_000);

  test('behavior: the token sessions closed during an intent and away for a while: the intent waits, then completes, nothing signed twice', async () => {
    const w = await fundedWallet('pkcs11-outage', 'base-sepolia', '10');
    const token = tokenOf(srv);
    const failedBefore = await tokenSignatures('error');
    const id = await submit({ walletId: w.id, action: 'lend', amount: 3, chain: 'base-sepolia' });
    token.closeSessions({ hold: true });
    const during = await srv.rest('GET', '/readyz');
    expect(during.status).toBe(503);
    await new Promise((r) => setTimeout(r, 1_500));
    // the intent did ask the token meanwhile, and was told to wait
    expect(await tokenSignatures('error')).toBeGreaterThan(failedBefore);
    token.release();
    const done = await finished(id);
    expect(done.status).toBe('completed');
    const hashes = hashesOf(done.executionPlan?.steps ?? []);
    expect(new Set(hashes).size).toBe(hashes.length);
    // approve and supply: two transactions from the wallet, each signed once
    expect(await sentBy('base-sepolia', w.address)).toBe(2);
    expect((await srv.rest('GET', '/readyz')).status).toBe(200);
  }, 180_000);
});

run('KEY_PROVIDER=pkcs11 at start', () => {
  test('error: a wrong PIN stops `npm start` with exit 2, naming PKCS11_PIN', async () => {
    const token = createSoftToken();
    try {
      const { code, err } = await new Promise<{ code: number | null; err: string }>((done) => {
        const child = spawn(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'src/main.ts'], {
          cwd: resolve(__dirname, '../..'),
          env: {
            PATH: process.env.PATH,
            PORT: '0',
            LOG_LEVEL: 'silent',
            DASHBOARD: 'off',
            KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY,
            SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST ?? '',
            ...token.env,
            PKCS11_PIN: '999999',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
        child.once('exit', (code) => done({ code, err }));
      });
      expect(code).toBe(2);
      expect(err).toMatch(/PKCS11_PIN: the token refused the PIN/);
    } finally {
      token.remove();
    }
  }, 120_000);
});
