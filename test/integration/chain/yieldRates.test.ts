import { startTestServer, type TestServer, ADMIN_TOKEN } from '../../helpers/server';

/**
 * Rate changes are global to a devnet, so this file runs on its own sandbox
 * (the empty SANDBOX_MANIFEST makes the service start fresh devnets) instead of
 * the shared one other files read rates from.
 */
let srv: TestServer;
let key: string;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '' });
  key = (await srv.admin.createAccount({ plan: 'free' })).key;
});
afterAll(() => srv?.stop());

it('behavior: a rate set through the admin control shows in /v1/yields and moves best', async () => {
  const before = await srv.rest('GET', '/v1/yields?asset=USDC', { key });
  expect(before.body.best.chain).toBe('base-sepolia');
  const set = await srv.rest('POST', '/admin/sandbox/rates', {
    key: ADMIN_TOKEN,
    body: { chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 12.5 },
  });
  expect(set.status).toBe(200);
  const after = await srv.rest('GET', '/v1/yields?asset=USDC', { key });
  const eth = after.body.rates.find((x: any) => x.chain === 'ethereum-sepolia' && x.protocol === 'aave-v3');
  expect(eth.apy).toBeCloseTo(12.5, 2);
  expect(after.body.best).toMatchObject({ chain: 'ethereum-sepolia', asset: 'USDC', protocol: 'aave-v3', apy: 12.5 });
  expect(after.body.best.reasoning).toContain('base-sepolia/aave-v3');
});

it('error: a rate for a market that does not exist is refused', async () => {
  const r = await srv.rest('POST', '/admin/sandbox/rates', {
    key: ADMIN_TOKEN,
    body: { chain: 'base-sepolia', protocol: 'compound-v3', asset: 'USDC', apy: 5 },
  });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('INVALID_CHAIN');
});
