import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../helpers/server';

/**
 * The standard x402 clients sign `validBefore = now + maxTimeoutSeconds` with
 * the wall clock. A devnet that mined one block per second of its own clock
 * ran minutes ahead after a busy spell, and every payment then expired on it.
 * Here a burst of mints and intents runs on base-sepolia (the paid reads'
 * network) first; the chain's clock stays with the wall clock and the real
 * client pays. On a sandbox of its own: the burst reaches no other file.
 */
let srv: TestServer;
let key: string;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '' });
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
}, 60_000);
afterAll(() => srv?.stop());

const mint = (address: string, amount: string) =>
  srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', asset: 'USDC', address, amount } });

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('behavior: after 300 mints and 20 lends on base-sepolia in a burst, its clock is within 2 s of the wall clock and @x402/fetch pays for GET /v1/yields', async () => {
  const sink = privateKeyToAccount(generatePrivateKey()).address;
  for (let round = 0; round < 6; round++) {
    const answers = await Promise.all(Array.from({ length: 50 }, () => mint(sink, '0.01')));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
  }
  const intents: string[] = [];
  for (let i = 0; i < 20; i++) {
    const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId: `busy-${i}` } });
    expect(w.status).toBe(201);
    expect((await mint(w.body.address, '2')).status).toBe(200);
    const r = await srv.rest('POST', '/v1/intents', { key, body: { walletId: w.body.id, action: 'lend', amount: 1, chain: 'base-sepolia' } });
    expect(r.status).toBe(201);
    intents.push(r.body.id);
  }
  const finals = await Promise.all(
    intents.map((id) =>
      until(`intent ${id} final`, async () => {
        const r = await srv.rest('GET', `/v1/intents/${id}`, { key });
        return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? (r.body.status as string) : undefined;
      }),
    ),
  );
  expect(finals).toEqual(Array(20).fill('completed'));

  const ready = await srv.rest('GET', '/readyz');
  expect(Math.abs((ready.body.checks.chainClocks as Json)['base-sepolia'].offsetSeconds)).toBeLessThanOrEqual(2);

  const payer = privateKeyToAccount(generatePrivateKey());
  expect((await mint(payer.address, '1')).status).toBe(200);
  const pay = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] });
  const res = await pay(`${srv.url}/v1/yields`);
  expect(res.status).toBe(200);
  expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: true, network: 'eip155:84532' });
}, 240_000);
