import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { baseSepolia } from 'viem/chains';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { decodeXPaymentResponse, wrapFetchWithPayment } from 'x402-fetch';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ADMIN_TOKEN, TEST_MASTER_KEY, startTestServer, type Json, type TestServer } from '../helpers/server';
import { signProof, type Authorization } from '../helpers/x402Proof';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService } from '../../src/service';
import { sandboxTokenAbi } from '../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES } from '../../src/chain/sandbox/accounts';

/**
 * Paid reads over x402 with the ecosystem's own clients, unchanged: @x402/fetch
 * (v2) and x402-fetch (v1), on the shared devnets (their USDC sits at Circle's
 * Base Sepolia address, so the v2 client's default spending controls accept it).
 * Balances are read on chain: the payer loses exactly 1000 units, the treasury
 * gains them. An authorization's time window is checked against the chain's
 * clock, and other test files advance the shared devnets' time: this file
 * runs on its OWN sandbox.
 */

let srv: TestServer;
let key: string;
let accountId: string;
let walletId: string;

const base = () => srv.service.chains.manifest.chains['base-sepolia']!;
const usdcAddress = () => base().tokens.USDC as Address;
const publicClient = () => createPublicClient({ chain: { ...baseSepolia, rpcUrls: { default: { http: [base().rpcUrl] } } }, transport: http(base().rpcUrl) });
const usdcOf = (address: Address) => publicClient().readContract({ address: usdcAddress(), abi: sandboxTokenAbi, functionName: 'balanceOf', args: [address] });

/** A payer with `amount` USDC on base-sepolia and no ETH (an EIP-3009 signature costs the payer no gas). */
async function payer(amount = '1'): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  if (amount !== '0') {
    const r = await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', asset: 'USDC', address: account.address, amount } });
    expect(r.status).toBe(200);
  }
  return account;
}

/** The offer of a paid route, decoded from its 402. */
async function offerOf(path: string): Promise<{ accepts: Json[]; resource: Json }> {
  const r = await fetch(srv.url + path);
  expect(r.status).toBe(402);
  return JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString('utf8'));
}

/** A v2 proof for `path`'s offer, signed by hand so every field can be made wrong on purpose. */
async function proof(account: PrivateKeyAccount, path: string, change: Partial<Authorization> = {}, o: { accepted?: Partial<Json>; signWith?: PrivateKeyAccount } = {}): Promise<string> {
  return signProof(account, await offerOf(path), change, o);
}

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '' });
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  key = acct.key;
  accountId = acct.accountId;
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'x402-reader', email: 'reader@example.com', metadata: { tier: 'gold' } } });
  expect(w.status).toBe(201);
  walletId = w.body.id;
}, 60_000);
afterAll(() => srv?.stop());

describe('paying per read with the real x402 clients', () => {
  test('behavior: @x402/fetch (v2) pays 0.001 USDC and reads GET /v1/yields: 200, PAYMENT-RESPONSE names the settlement; payer −1000 units, treasury +1000 on chain', async () => {
    const account = await payer();
    const [payerBefore, treasuryBefore] = await Promise.all([usdcOf(account.address), usdcOf(SANDBOX_ADDRESSES.treasury)]);
    const pay = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(account) }] });
    const res = await pay(`${srv.url}/v1/yields`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).rates.length).toBeGreaterThan(0);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532' });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await publicClient().getTransactionReceipt({ hash: settlement.transaction as Hex });
    expect(receipt.status).toBe('success');
    expect(await usdcOf(account.address)).toBe(payerBefore - 1000n);
    expect(await usdcOf(SANDBOX_ADDRESSES.treasury)).toBe(treasuryBefore + 1000n);
  });

  test('behavior: x402-fetch (v1) pays and reads a wallet\'s balances: 200 with X-PAYMENT-RESPONSE', async () => {
    const account = await payer();
    const before = await usdcOf(account.address);
    const wallet = createWalletClient({ account, chain: { ...baseSepolia, rpcUrls: { default: { http: [base().rpcUrl] } } }, transport: http(base().rpcUrl) });
    const pay = wrapFetchWithPayment(fetch, wallet as never);
    const res = await pay(`${srv.url}/v1/balances/${walletId}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).walletId).toBe(walletId);
    const settlement = decodeXPaymentResponse(res.headers.get('x-payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'base-sepolia' });
    expect(await usdcOf(account.address)).toBe(before - 1000n);
  });

  test('behavior: the same proof in X-Payment-Proof (the API\'s header) reads an intent-free route too; a paid wallet read needs X-Account-Id and shows no email or metadata', async () => {
    const account = await payer();
    const r = await fetch(`${srv.url}/v1/wallets/x402-reader`, { headers: { 'X-Payment-Proof': await proof(account, '/v1/wallets/x402-reader'), 'X-Account-Id': accountId } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Json;
    expect(body.id).toBe(walletId);
    expect(body.email).toBeUndefined();
    expect(body.metadata).toEqual({});
    expect(r.headers.get('payment-response')).toBeTruthy();

    const missing = await fetch(`${srv.url}/v1/wallets/x402-reader`, { headers: { 'X-Payment-Proof': await proof(account, '/v1/wallets/x402-reader') } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Json).details.issues[0].path).toBe('X-Account-Id');
  });
});

describe('what is refused', () => {
  test('error: no credentials at all on a paid read → 402 PAYMENT_REQUIRED with v2 requirements in PAYMENT-REQUIRED, v1 in the body, WWW-Authenticate: Bearer', async () => {
    const r = await fetch(`${srv.url}/v1/yields`);
    expect(r.status).toBe(402);
    expect(r.headers.get('www-authenticate')).toBe('Bearer');
    const v2 = JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString('utf8'));
    expect(v2.x402Version).toBe(2);
    expect(v2.accepts.map((a: Json) => a.network)).toEqual(['eip155:84532', 'eip155:11155111']);
    expect(v2.accepts[0]).toMatchObject({ scheme: 'exact', amount: '1000', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo: SANDBOX_ADDRESSES.treasury });
    const name = await publicClient().readContract({ address: usdcAddress(), abi: sandboxTokenAbi, functionName: 'name' });
    expect(v2.accepts[0].extra).toEqual({ name, version: '2' });
    const body = (await r.json()) as Json;
    expect(body).toMatchObject({ error: 'PAYMENT_REQUIRED', x402Version: 1 });
    expect(body.accepts[0]).toMatchObject({ network: 'base-sepolia', maxAmountRequired: '1000' });
  });

  test('error: a bad key stays 401 (never a payment); writes without a key are 401; a valid key reads without paying', async () => {
    const bad = await fetch(`${srv.url}/v1/yields`, { headers: { Authorization: 'Bearer svc_sk_' + '0'.repeat(64) } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('payment-required')).toBeNull();
    const write = await fetch(`${srv.url}/v1/wallets`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"userId":"nope"}' });
    expect(write.status).toBe(401);
    const list = await fetch(`${srv.url}/v1/intents?walletId=${walletId}`);
    expect(list.status).toBe(401);
    const keyed = await fetch(`${srv.url}/v1/yields`, { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('payment-response')).toBeNull();
  });

  test('error: one proof sent again, and six times at once → exactly one read served; the rest 402 PAYMENT_INVALID nonce_already_used', async () => {
    const account = await payer();
    const once = await proof(account, '/v1/yields');
    const first = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': once } });
    expect(first.status).toBe(200);
    const again = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': once } });
    expect(again.status).toBe(402);
    expect(((await again.json()) as Json).details.reason).toBe('nonce_already_used');

    const six = await proof(account, '/v1/yields');
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': six } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 402, 402, 402, 402, 402]);
  });

  test.each([
    ['wrong payee', async (a: PrivateKeyAccount) => proof(a, '/v1/yields', { to: SANDBOX_ADDRESSES.faucet })],
    ['underpaid', async (a: PrivateKeyAccount) => proof(a, '/v1/yields', { value: '999' })],
    ['underpaid offer', async (a: PrivateKeyAccount) => proof(a, '/v1/yields', { value: '1' }, { accepted: { amount: '1' } })],
    ['expired', async (a: PrivateKeyAccount) => proof(a, '/v1/yields', { validBefore: String(Math.floor(Date.now() / 1000) - 10) })],
    ['not yet valid', async (a: PrivateKeyAccount) => proof(a, '/v1/yields', { validAfter: String(Math.floor(Date.now() / 1000) + 3600) })],
    ['forged signature', async (a: PrivateKeyAccount) => proof(a, '/v1/yields', {}, { signWith: privateKeyToAccount(generatePrivateKey()) })],
    ['malformed base64', async () => '%%% not base64 %%%'],
    ['wrong JSON', async () => Buffer.from(JSON.stringify({ hello: 'world' })).toString('base64')],
  ])('error: %s → 402 PAYMENT_INVALID with a reason and the requirements again; nothing moves', async (_name, make) => {
    const account = await payer();
    const before = await usdcOf(account.address);
    const r = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': await make(account) } });
    expect(r.status).toBe(402);
    const body = (await r.json()) as Json;
    expect(body.error).toBe('PAYMENT_INVALID');
    expect(typeof body.details.reason).toBe('string');
    expect(r.headers.get('payment-required')).toBeTruthy();
    expect(await usdcOf(account.address)).toBe(before);
  });

  test('error: an unfunded payer → 402 PAYMENT_INVALID (the transfer is simulated before the read is served)', async () => {
    const account = await payer('0');
    const r = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': await proof(account, '/v1/yields') } });
    expect(r.status).toBe(402);
    expect(((await r.json()) as Json).error).toBe('PAYMENT_INVALID');
  });
});

describe('logs', () => {
  test('security: no private key, proof or signature appears in any log line of a paid read, a refused proof or a replay (debug level)', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // a second service on this file's own devnets
    const manifest = join(mkdtempSync(join(tmpdir(), 'x402-')), 'manifest.json');
    writeFileSync(manifest, JSON.stringify(srv.service.chains.manifest));
    const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'debug', ADMIN_TOKEN, SANDBOX_MANIFEST: manifest, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY }), createLogger('debug', sink));
    try {
      const secret = generatePrivateKey();
      const account = privateKeyToAccount(secret);
      const mint = await fetch(`${svc.url}/admin/sandbox/mint`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ chain: 'base-sepolia', asset: 'USDC', address: account.address, amount: '1' }),
      });
      expect(mint.status).toBe(200);
      const pay = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(account) }] });
      const seen: string[] = [];
      const spy: typeof fetch = async (input, init) => {
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
        const p = headers.get('payment-signature');
        if (p) seen.push(p);
        return fetch(input, init);
      };
      const paid = await wrapFetchWithPaymentFromConfig(spy, { schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(account) }] })(`${svc.url}/v1/yields`);
      expect(paid.status).toBe(200);
      expect(seen).toHaveLength(1);
      const replay = await fetch(`${svc.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': seen[0]!, 'X-Payment-Proof': seen[0]! } });
      expect(replay.status).toBe(402);
      const refused = await pay(`${svc.url}/v1/wallets/nobody`);
      expect([400, 402, 404]).toContain(refused.status);
      const signature = (JSON.parse(Buffer.from(seen[0]!, 'base64').toString('utf8')) as Json).payload.signature as string;
      const text = lines.join('');
      expect(lines.length).toBeGreaterThan(0);
      for (const needle of [secret, secret.slice(2), seen[0]!, signature, signature.slice(2)]) expect(text).not.toContain(needle);
    } finally {
      await svc.stop();
    }
  });
});

describe('limits', () => {
  // Last in the file: it spends this client address's invalid-proof window.
  test('error: garbage proofs are limited per client address: past 20 in a minute → 429 with Retry-After, before any verification', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const r = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': `garbage-${i}` } });
      statuses.push(r.status);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(-1)).toEqual([429]);
    expect(statuses.every((s) => s === 402 || s === 429)).toBe(true);
    // an API key is not affected
    const keyed = await fetch(`${srv.url}/v1/yields`, { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.status).toBe(200);
  });
});
