import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

/** GET /admin/sandbox/manifest: the sandbox deployment in the CHAIN_MANIFEST shape, for tools that look for the contracts. */
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
}, 60_000);
afterAll(() => srv?.stop());

test("behavior: the admin gets the deployment (every chain, its tokens, markets and CCTP contracts) and the attestation service's base URL", async () => {
  const r = await srv.rest('GET', '/admin/sandbox/manifest', { key: ADMIN_TOKEN });
  expect(r.status).toBe(200);
  const deployed = JSON.parse(readFileSync(process.env.SANDBOX_MANIFEST!, 'utf8'));
  expect(r.body.chains).toEqual(deployed.chains);
  expect(r.body.attester).toBe(deployed.attester);
  expect('attestationApi' in r.body).toBe(true);
  for (const d of Object.values(r.body.chains) as { tokens: { USDC: string }; aavePool: string; tokenMessenger: string; messageTransmitter: string }[]) {
    for (const a of [d.tokens.USDC, d.aavePool, d.tokenMessenger, d.messageTransmitter]) expect(a).toMatch(/^0x[0-9a-fA-F]{40}$/);
  }
});

test('security: without the admin token it is 401, and an API key is not an admin token', async () => {
  expect((await srv.rest('GET', '/admin/sandbox/manifest')).status).toBe(401);
  const { key } = await srv.admin.createAccount({ plan: 'enterprise' });
  expect((await srv.rest('GET', '/admin/sandbox/manifest', { key })).status).toBe(401);
});
