import { startTestServer, type TestServer } from '../helpers/server';

/**
 * GraphiQL writes the development key into its page only for a browser on
 * this machine. Behind a reverse proxy on this machine every request comes
 * from loopback: the client address (TRUSTED_PROXIES) decides, as it does
 * for every limit by address.
 */

let behindProxy: TestServer;
let direct: TestServer;

beforeAll(async () => {
  [behindProxy, direct] = await Promise.all([
    // The key a development start generates (an operator's DEV_API_KEY is never written into a page).
    startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, TRUSTED_PROXIES: '127.0.0.1,::1' }),
    startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([behindProxy?.stop(), direct?.stop()]);
});

/** Whether the GraphiQL page served to a browser (behind `forwardedFor`, when given) holds the development key (a boolean: the page is megabytes). */
const pageHasKey = async (srv: TestServer, forwardedFor?: string): Promise<boolean> => {
  const r = await fetch(`${srv.url}/graphql`, { headers: { Accept: 'text/html', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) } });
  expect(r.status).toBe(200);
  const key = srv.service.devApiKey;
  expect(key).toMatch(/^svc_sk_/);
  return (await r.text()).includes(key!);
};

test('security: behind a trusted proxy on loopback, a remote client (X-Forwarded-For) gets GraphiQL without the development key; a local one still gets it', async () => {
  expect(await pageHasKey(behindProxy, '203.0.113.5')).toBe(false);
  expect(await pageHasKey(behindProxy, '127.0.0.1')).toBe(true);
  expect(await pageHasKey(behindProxy)).toBe(true);
});

test('security: with no trusted proxy, X-Forwarded-For changes nothing: the loopback peer is the client', async () => {
  expect(await pageHasKey(direct, '203.0.113.5')).toBe(true);
});
