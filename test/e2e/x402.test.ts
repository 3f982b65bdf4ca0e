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
import { ADMIN_TOKEN, TEST_MASTER_KEY, fitInRateWindow, startTestServer, type Json, type TestServer } from '../helpers/server';
import { signProof, type Authorization } from '../helpers/x402Proof';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService } from '../../src/service';
import { sandboxTokenAbi } from '../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES } from '../../src/chain/sandbox/accounts';
import type { PaymentVerifier } from '../../src/ports/payments';

/**
 * Paid reads over x402 with the ecosystem's own clients, unchanged: @x402/fetch
 * (v2) and x402-fetch (v1), on the shared devnets (their USDC sits at Circle's
 * Base Sepolia address, so the v2 client's default spending controls accept it).
 * Balances are read on chain: the payer loses exactly 1000 units, the treasury
 * gains them. An authorization's time window is checked against the chain's
 * clock, and other test files advance the shared devnets' time: this file
 * runs on its OWN sandbox. The server trusts loopback as its reverse proxy
 * (TRUSTED_PROXIES), so a test that counts invalid proofs names its own
 * client in X-Forwarded-For and has its own windows.
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
    const r = await srv.rest('POST', '/admin/sandbox/mint', {
      key: ADMIN_TOKEN,
      body: { chain: 'base-sepolia', asset: 'USDC', address: account.address, amount },
    });
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
async function proof(
  account: PrivateKeyAccount,
  path: string,
  change: Partial<Authorization> = {},
  o: { accepted?: Partial<Json>; signWith?: PrivateKeyAccount } = {},
): Promise<string> {
  return signProof(account, await offerOf(path), change, o);
}

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '', TRUSTED_PROXIES: '127.0.0.1,::1' });
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  key = acct.key;
  accountId = acct.accountId;
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'x402-reader', email: 'reader@example.com', metadata: { tier: 'gold' } } });
  expect(w.status).toBe(201);
  walletId = w.body.id;
}, 60_000);
afterAll(() => srv?.stop());

let clients = 0;
/** A client address of its own (behind the trusted proxy): its invalid-proof window is its own. */
const newClient = () => `198.51.100.${++clients}`;

/** Calls through the payment port, counted: a proof refused before any chain call never reaches `verify`. */
function countPortCalls(): { verify: number } {
  const real = srv.service.deps.payments!;
  const calls = { verify: 0 };
  srv.service.deps.payments = {
    ...real,
    verify: (p, r) => {
      calls.verify++;
      return real.verify(p, r);
    },
  } satisfies PaymentVerifier;
  restorePort.push(() => {
    srv.service.deps.payments = real;
  });
  return calls;
}
const restorePort: (() => void)[] = [];
afterEach(() => {
  for (const restore of restorePort.splice(0).reverse()) restore();
});

/** A paid GET of `path` with `proof`, from `client` (X-Forwarded-For), with more headers. */
const paidGet = (path: string, proof: string, client: string, headers: Record<string, string> = {}) =>
  fetch(srv.url + path, { headers: { 'PAYMENT-SIGNATURE': proof, 'X-Forwarded-For': client, ...headers } });

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

  test("behavior: x402-fetch (v1) pays and reads a wallet's balances: 200 with X-PAYMENT-RESPONSE", async () => {
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

  test("behavior: the same proof in X-Payment-Proof (the API's header) reads an intent-free route too; a paid wallet read needs X-Account-Id and has no email or metadata field at all", async () => {
    const account = await payer();
    const r = await fetch(`${srv.url}/v1/wallets/x402-reader`, {
      headers: { 'X-Payment-Proof': await proof(account, '/v1/wallets/x402-reader'), 'X-Account-Id': accountId },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Json;
    expect(body.id).toBe(walletId);
    expect(Object.keys(body).sort()).toEqual(['address', 'chainType', 'chains', 'createdAt', 'id', 'policyId', 'userId']);
    expect(body.policyId).toBeNull();
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
    expect(v2.accepts[0]).toMatchObject({
      scheme: 'exact',
      amount: '1000',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      payTo: SANDBOX_ADDRESSES.treasury,
    });
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
    const svc = await startService(
      loadConfig({ PORT: '0', LOG_LEVEL: 'debug', ADMIN_TOKEN, SANDBOX_MANIFEST: manifest, KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY }),
      createLogger('debug', sink),
    );
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
      const paid = await wrapFetchWithPaymentFromConfig(spy, { schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(account) }] })(
        `${svc.url}/v1/yields`,
      );
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

describe('paid reads are paid before they are served', () => {
  test('error: a read whose settlement fails (the balance went to another proof meanwhile) → 402 PAYMENT_INVALID settlement_failed, no read body; the payer paid once', async () => {
    const account = await payer('0.001');
    const [mine, other] = [await proof(account, '/v1/yields'), await proof(account, '/v1/yields')];
    const real = srv.service.deps.payments!;
    // The other proof, verified now and settled between this read and its settlement: what another instance would do.
    const spendsFirst = await real.verify({ header: 'PAYMENT-SIGNATURE', value: other }, `${srv.url}/v1/yields`);
    srv.service.deps.payments = {
      ...real,
      async verify(p, r) {
        const v = await real.verify(p, r);
        return { ...v, settle: async () => (await spendsFirst.settle(), v.settle()) };
      },
    };
    restorePort.push(() => {
      srv.service.deps.payments = real;
    });
    const treasuryBefore = await usdcOf(SANDBOX_ADDRESSES.treasury);
    const r = await paidGet('/v1/yields', mine, newClient());
    const text = await r.text();
    expect(r.status).toBe(402);
    const body = JSON.parse(text) as Json;
    expect(body.error).toBe('PAYMENT_INVALID');
    expect(body.details.reason).toBe('settlement_failed');
    expect(text).not.toContain('"rates"');
    expect(decodePaymentResponseHeader(r.headers.get('payment-response')!)).toMatchObject({ success: false });
    expect(await usdcOf(account.address)).toBe(0n);
    expect(await usdcOf(SANDBOX_ADDRESSES.treasury)).toBe(treasuryBefore + 1000n);
  });

  test.each([5, 50])(
    "error: %i proofs with different nonces at once on one read's balance → exactly one 200, the rest 402 with details.reason; one settlement on chain",
    async (n) => {
      const account = await payer('0.001');
      const offer = await offerOf('/v1/yields');
      const proofs = await Promise.all(Array.from({ length: n }, () => signProof(account, offer)));
      const treasuryBefore = await usdcOf(SANDBOX_ADDRESSES.treasury);
      const client = newClient();
      const answers = await Promise.all(
        proofs.map(async (p) => {
          const r = await paidGet('/v1/yields', p, client);
          return { status: r.status, body: (await r.json()) as Json };
        }),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused.map((a) => a.status)).toEqual(Array(n - 1).fill(402));
      for (const a of refused) {
        expect(a.body.error).toBe('PAYMENT_INVALID');
        expect(typeof a.body.details.reason).toBe('string');
        expect(a.body.rates).toBeUndefined();
      }
      expect(await usdcOf(account.address)).toBe(0n);
      expect(await usdcOf(SANDBOX_ADDRESSES.treasury)).toBe(treasuryBefore + 1000n);
    },
  );
});

describe('limits', () => {
  test("error: an unfunded payer's well-formed proofs: 20 in a minute are verified (402), then 429 with Retry-After and no chain call; another payer from that client is still verified", async () => {
    await fitInRateWindow(20_000);
    const account = await payer('0');
    const offer = await offerOf('/v1/yields');
    const client = newClient();
    const calls = countPortCalls();
    for (let i = 0; i < 20; i++) {
      const r = await paidGet('/v1/yields', await signProof(account, offer), client);
      expect(r.status).toBe(402);
    }
    expect(calls.verify).toBe(20);
    for (let i = 0; i < 3; i++) {
      const r = await paidGet('/v1/yields', await signProof(account, offer), client);
      expect(r.status).toBe(429);
      expect(((await r.json()) as Json).error).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(calls.verify).toBe(20);
    const other = await paidGet('/v1/yields', await signProof(await payer('0'), offer), client);
    expect(other.status).toBe(402);
    expect(calls.verify).toBe(21);
  });

  test("behavior: a payer's valid proofs never count toward its invalid-proof limit: 19 invalid, 3 paid reads, a 20th invalid is still verified, then 429 unverified", async () => {
    await fitInRateWindow(20_000);
    const account = await payer('0.003');
    const offer = await offerOf('/v1/yields');
    const client = newClient();
    const calls = countPortCalls();
    const underpaid = () => signProof(account, offer, { value: '999' });
    for (let i = 0; i < 19; i++) expect((await paidGet('/v1/yields', await underpaid(), client)).status).toBe(402);
    for (let i = 0; i < 3; i++) expect((await paidGet('/v1/yields', await signProof(account, offer), client)).status).toBe(200);
    expect((await paidGet('/v1/yields', await underpaid(), client)).status).toBe(402);
    expect((await paidGet('/v1/yields', await underpaid(), client)).status).toBe(429);
    expect(calls.verify).toBe(23);
  });

  test("security: forged proofs naming someone else's address count against the sender's address only (60 a minute), never against that payer", async () => {
    await fitInRateWindow(20_000);
    const victim = await payer('0.001');
    const offer = await offerOf('/v1/yields');
    const forger = privateKeyToAccount(generatePrivateKey());
    const attacker = newClient();
    const calls = countPortCalls();
    for (let i = 0; i < 60; i++) expect((await paidGet('/v1/yields', await signProof(victim, offer, {}, { signWith: forger }), attacker)).status).toBe(402);
    expect(calls.verify).toBe(60);
    const past = await paidGet('/v1/yields', await signProof(victim, offer, {}, { signWith: forger }), attacker);
    expect(past.status).toBe(429);
    expect(calls.verify).toBe(60);
    // the victim, from its own address, pays and reads as usual
    expect((await paidGet('/v1/yields', await signProof(victim, offer), newClient())).status).toBe(200);
  });

  test('security: behind the trusted proxy each client has its own window; a peer that is not a trusted proxy cannot pick one with X-Forwarded-For', async () => {
    await fitInRateWindow(20_000);
    const [a, b] = [newClient(), newClient()];
    for (let i = 0; i < 60; i++) expect((await paidGet('/v1/yields', `garbage-${i}`, a)).status).toBe(402);
    expect((await paidGet('/v1/yields', 'garbage', a)).status).toBe(429);
    expect((await paidGet('/v1/yields', 'garbage', b)).status).toBe(402);

    // a second service on this file's devnets that trusts no proxy on loopback: the header is ignored, the peer is the client
    const manifest = join(mkdtempSync(join(tmpdir(), 'x402-')), 'manifest.json');
    writeFileSync(manifest, JSON.stringify(srv.service.chains.manifest));
    const direct = await startTestServer({ SANDBOX_MANIFEST: manifest, TRUSTED_PROXIES: '10.0.0.0/8' });
    try {
      const get = (forwardedFor: string) => fetch(`${direct.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': 'garbage', 'X-Forwarded-For': forwardedFor } });
      for (let i = 0; i < 60; i++) expect((await get(`203.0.113.${i}`)).status).toBe(402);
      expect((await get('203.0.113.200')).status).toBe(429);
    } finally {
      await direct.stop();
    }
  });

  test('security: a paid GET /v1/wallets/:userId of a user id that is an e-mail address → 403 FORBIDDEN email_user_id before any proof is verified, unless the account opted in', async () => {
    const withEmailId = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'ada@example.com' } });
    expect(withEmailId.status).toBe(201);
    const account = await payer('0.002');
    const calls = countPortCalls();
    const path = '/v1/wallets/ada%40example.com';
    const r = await paidGet(path, await proof(account, path), newClient(), { 'X-Account-Id': accountId });
    expect(r.status).toBe(403);
    expect(((await r.json()) as Json).details.reason).toBe('email_user_id');
    // an account that does not exist answers the same (no way to tell which accounts opted in)
    const unknown = await paidGet(path, await proof(account, path), newClient(), { 'X-Account-Id': 'svc_account_00000000000000000000000000000000' });
    expect(unknown.status).toBe(403);
    expect(calls.verify).toBe(0);
    expect(await usdcOf(account.address)).toBe(2000n);

    const optedIn = await srv.rest('POST', '/admin/accounts', { key: ADMIN_TOKEN, body: { plan: 'pro', paidEmailLookups: true } });
    expect(optedIn.status).toBe(201);
    expect((await srv.rest('POST', '/v1/wallets', { key: optedIn.body.apiKey.key, body: { userId: 'ada@example.com' } })).status).toBe(201);
    const allowed = await paidGet(path, await proof(account, path), newClient(), { 'X-Account-Id': optedIn.body.account.id });
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as Json).userId).toBe('ada@example.com');
  });

  test('error: paid wallet lookups are limited per payer (10 a minute), below other paid reads: the 11th → 429 and nothing is paid for it; a paid /v1/yields still reads', async () => {
    await fitInRateWindow(30_000);
    const account = await payer('0.012');
    const path = '/v1/wallets/x402-reader';
    const offer = await offerOf(path);
    const client = newClient();
    for (let i = 0; i < 10; i++) expect((await paidGet(path, await signProof(account, offer), client, { 'X-Account-Id': accountId })).status).toBe(200);
    const past = await paidGet(path, await signProof(account, offer), client, { 'X-Account-Id': accountId });
    expect(past.status).toBe(429);
    expect(((await past.json()) as Json).error).toBe('RATE_LIMIT_EXCEEDED');
    expect(await usdcOf(account.address)).toBe(2000n);
    expect((await paidGet('/v1/yields', await proof(account, '/v1/yields'), client)).status).toBe(200);
  });

  // Last in the file: it spends this client address's invalid-proof window.
  test('error: garbage proofs are limited per client address: past 60 in a minute → 429 with Retry-After, before any verification', async () => {
    await fitInRateWindow(20_000);
    const calls = countPortCalls();
    const statuses: number[] = [];
    for (let i = 0; i < 64; i++) {
      const r = await fetch(`${srv.url}/v1/yields`, { headers: { 'PAYMENT-SIGNATURE': `garbage-${i}` } });
      statuses.push(r.status);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(-1)).toEqual([429]);
    expect(statuses.every((s) => s === 402 || s === 429)).toBe(true);
    expect(calls.verify).toBe(0);
    // an API key is not affected
    const keyed = await fetch(`${srv.url}/v1/yields`, { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.status).toBe(200);
  });
});
