import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { ADMIN_TOKEN, startTestServer, TEST_MASTER_KEY, type Json, type TestServer } from '../helpers/server';
import { createSoftToken, softhsmMissing, SOFTHSM_MODULE, type SoftToken } from '../helpers/softhsm';
import { signProof } from '../helpers/x402Proof';
import type { Pkcs11Token } from '../../src/chain/keys/pkcs11/pkcs11Token';
import { SANDBOX_ADDRESSES } from '../../src/chain/sandbox/accounts';
import type { ServiceKeyLabel } from '../../src/ports/keyProvider';
import { PROTOCOLS_WITHOUT_PERMITS } from '../helpers/withoutPermits';

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

/** The token's private keys as OpenSC's pkcs11-tool lists them (label and access flags of each). */
const privateKeysListed = (): string =>
  execFileSync('pkcs11-tool', ['--module', SOFTHSM_MODULE, '--token-label', soft.label, '--pin', soft.pin, '--list-objects', '--type', 'privkey']).toString();

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

const clientOf = (chain: string) => createPublicClient({ transport: http(srv.service.chains.manifest.chains[chain as 'base-sepolia']!.rpcUrl) });

/** Transactions `address` has sent on `chain` (its nonce). */
async function sentBy(chain: string, address: Address): Promise<number> {
  return clientOf(chain).getTransactionCount({ address });
}

/** The address of a service key the token holds (asked of the provider, not of the config). */
const serviceAddress = async (label: ServiceKeyLabel): Promise<Address> => (await srv.service.keyProvider.serviceSigner(label)).address;

/** The sender of each transaction an intent recorded, as the chain has it: `kind@chain from`. */
async function sendersOf(intent: Json): Promise<string[]> {
  return Promise.all(
    (intent.results.transactions as Json[]).map(
      async (t) => `${t.kind}@${t.chain} ${(await clientOf(t.chain).getTransaction({ hash: t.txHash as Hex })).from.toLowerCase()}`,
    ),
  );
}

/** Transactions sent to `to` with a value, in `chain`'s blocks from `fromBlock` on. */
async function paymentsTo(chain: string, to: Address, fromBlock: bigint): Promise<{ from: Address; value: bigint }[]> {
  const client = clientOf(chain);
  const last = await client.getBlockNumber();
  const out: { from: Address; value: bigint }[] = [];
  for (let n = fromBlock; n <= last; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) if (tx.to?.toLowerCase() === to.toLowerCase() && tx.value > 0n) out.push({ from: tx.from, value: tx.value });
  }
  return out;
}

run('KEY_PROVIDER=pkcs11 on the devnets', () => {
  beforeAll(async () => {
    soft = createSoftToken();
    // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
    srv = await startTestServer({ ...soft.env, SANDBOX_ACCOUNT_MODEL: 'plain' }, { protocols: PROTOCOLS_WITHOUT_PERMITS });
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
    const listed = privateKeysListed();
    for (const label of ['service:gas-tank', 'service:faucet', 'service:settler']) expect(listed).toContain(`label:      ${label}`);
  });

  test('behavior: a lend, a withdraw and a bridge complete, each signature made by the token; the wallet key is in the token, sensitive and never extractable', async () => {
    const w = await fundedWallet('pkcs11-lender', 'base-sepolia', '10');
    const rec = await srv.service.deps.store.walletKeys.get(w.id);
    expect(rec).toEqual({ walletId: w.id, address: w.address, provider: 'pkcs11', keyId: w.id, createdAt: expect.any(String) });
    const listed = privateKeysListed();
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

  test("behavior: a cross-chain lend (funds on arbitrum-sepolia, lend on base-sepolia: bridge then deposit) completes; every transaction is the wallet's or the token's gas tank's, each signed by the token", async () => {
    const w = await fundedWallet('pkcs11-cross', 'arbitrum-sepolia', '6');
    const tank = (await serviceAddress('gas-tank')).toLowerCase();
    const before = await tokenSignatures();
    const lend = await finished(await submit({ walletId: w.id, action: 'lend', amount: 5, chain: 'base-sepolia' }));
    expect(lend.status).toBe('completed');
    const me = w.address.toLowerCase();
    expect(await sendersOf(lend)).toEqual([
      `approve@arbitrum-sepolia ${me}`,
      `burn@arbitrum-sepolia ${me}`,
      `mint@base-sepolia ${tank}`,
      `approve@base-sepolia ${me}`,
      `supply@base-sepolia ${me}`,
    ]);
    const walletTxs = (await sentBy('arbitrum-sepolia', w.address)) + (await sentBy('base-sepolia', w.address));
    expect(walletTxs).toBe(4);
    // the wallet's four, the relayed mint and a top-up on each chain: all signed in the token
    expect((await tokenSignatures()) - before).toBeGreaterThanOrEqual(walletTxs + 3);
  }, 240_000);

  test('behavior: a rebalance (Aave on arbitrum-sepolia into Aave on ethereum-sepolia) completes, each transaction signed by the token', async () => {
    const w = await fundedWallet('pkcs11-rebalance', 'arbitrum-sepolia', '5');
    const lend = await finished(await submit({ walletId: w.id, action: 'lend', amount: 5, chain: 'arbitrum-sepolia' }));
    expect(lend.status).toBe('completed');
    const tank = (await serviceAddress('gas-tank')).toLowerCase();
    const before = await tokenSignatures();
    const move = await finished(
      await submit({
        walletId: w.id,
        action: 'rebalance',
        amount: '5',
        toChain: 'ethereum-sepolia',
        toProtocol: 'aave-v3',
        sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '5' }],
      }),
    );
    expect({ status: move.status, error: move.error ?? null }).toEqual({ status: 'completed', error: null });
    const me = w.address.toLowerCase();
    expect(await sendersOf(move)).toEqual([
      `withdraw@arbitrum-sepolia ${me}`,
      `approve@arbitrum-sepolia ${me}`,
      `burn@arbitrum-sepolia ${me}`,
      `mint@ethereum-sepolia ${tank}`,
      `approve@ethereum-sepolia ${me}`,
      `supply@ethereum-sepolia ${me}`,
    ]);
    expect((await tokenSignatures()) - before).toBeGreaterThanOrEqual(move.results.transactions.length);
  }, 240_000);

  test("behavior: a paid read (x402) is settled on base-sepolia by the token's settler key: the settlement's sender is the token's settler, signed by the token", async () => {
    const settler = await serviceAddress('settler');
    expect(settler).not.toBe(SANDBOX_ADDRESSES.settler);
    const payer = privateKeyToAccount(generatePrivateKey());
    const m = await srv.rest('POST', '/admin/sandbox/mint', {
      key: ADMIN_TOKEN,
      body: { chain: 'base-sepolia', asset: 'USDC', address: payer.address, amount: '1' },
    });
    expect(m.status).toBe(200);
    const offer = await fetch(`${srv.url}/v1/yields`);
    expect(offer.status).toBe(402);
    const decoded = JSON.parse(Buffer.from(offer.headers.get('payment-required')!, 'base64').toString('utf8'));
    // other files move the shared devnets' clocks on: the authorization is valid by the chain's clock as well as the wall's
    const chainNow = Number((await clientOf('base-sepolia').getBlock()).timestamp);
    const validBefore = String(Math.max(chainNow, Math.floor(Date.now() / 1000)) + 120);
    const before = await tokenSignatures();
    const res = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': await signProof(payer, decoded, { validBefore }) } });
    expect(res.status).toBe(200);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532' });
    const tx = await clientOf('base-sepolia').getTransaction({ hash: settlement.transaction as Hex });
    expect(tx.from.toLowerCase()).toBe(settler.toLowerCase());
    expect((await clientOf('base-sepolia').getTransactionReceipt({ hash: tx.hash })).status).toBe('success');
    expect((await tokenSignatures()) - before).toBeGreaterThanOrEqual(1);
  }, 120_000);

  test("behavior: a fresh wallet's first intent gets native gas from the gas tank: the top-up's sender is the token's gas tank, signed by the token", async () => {
    const tank = await serviceAddress('gas-tank');
    expect(tank).not.toBe(SANDBOX_ADDRESSES.gasTank);
    const w = await fundedWallet('pkcs11-topup', 'base-sepolia', '3');
    const client = clientOf('base-sepolia');
    expect(await client.getBalance({ address: w.address })).toBe(0n);
    const fromBlock = await client.getBlockNumber();
    const before = await tokenSignatures();
    const lend = await finished(await submit({ walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' }));
    expect(lend.status).toBe('completed');
    const topUps = await paymentsTo('base-sepolia', w.address, fromBlock);
    expect(topUps.map((t) => t.from.toLowerCase())).toEqual([tank.toLowerCase()]);
    expect(topUps[0]!.value).toBeGreaterThan(0n);
    // the top-up and the wallet's approve and supply
    expect((await tokenSignatures()) - before).toBeGreaterThanOrEqual(3);
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
