import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

/**
 * The gas tank pays for an account twice over: the relayer's transactions,
 * and the native gas it sends a wallet before the wallet's first transaction
 * (a top-up of 0.003 ETH that outlasts several intents). Both count against
 * GAS_BUDGET_PER_ACCOUNT: a budget smaller than one top-up lets the fresh
 * wallet's first lend run, and refuses the next.
 */
let srv: TestServer;
beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, GAS_BUDGET_PER_ACCOUNT: '0.002', SANDBOX_ACCOUNT_MODEL: 'plain' });
}, 60_000);
afterAll(() => srv?.stop());

async function final(key: string, id: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await srv.rest('GET', `/v1/intents/${id}`, { key });
    if (['completed', 'failed', 'cancelled'].includes(r.body.status)) return r.body.status;
    if (Date.now() > deadline) throw new Error(`intent ${id} not final`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

test("behavior: a fresh wallet's gas top-up is counted: under a 0.002 ETH budget the first lend runs (its top-up is 0.003 ETH), the second is 429 GAS_BUDGET_EXCEEDED", async () => {
  const { key } = await srv.admin.createAccount({ plan: 'pro' });
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'topped-up' } });
  expect(w.status).toBe(201);
  expect(
    (await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', asset: 'USDC', address: w.body.address, amount: '10' } }))
      .status,
  ).toBe(200);
  const body = { walletId: w.body.id, action: 'lend', amount: 1, chain: 'base-sepolia' };
  const first = await srv.rest('POST', '/v1/intents', { key, body });
  expect(first.status).toBe(201);
  expect(await final(key, first.body.id)).toBe('completed');
  const second = await srv.rest('POST', '/v1/intents', { key, body });
  expect(second.status).toBe(429);
  expect(second.body.error).toBe('GAS_BUDGET_EXCEEDED');
  expect(Number(second.body.details.spentEth)).toBeGreaterThan(0.003);
});
