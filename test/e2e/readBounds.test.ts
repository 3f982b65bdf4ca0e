import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

/**
 * Every list a front door serves is bounded before it is read (docs/api-guide.md,
 * "Bounds on every read"): the bounds that come from a cap on what an account
 * may hold, checked through the real service.
 */
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(() => srv?.stop());

test('error: an account holds at most 50 API keys, active or revoked, from the admin API too (it had no bound, so the dashboard’s and the admin’s key lists grew without one): the 51st is 403 FORBIDDEN with the limit', async () => {
  const { accountId, keyId } = await srv.admin.createAccount({ plan: 'pro' });
  await srv.admin.revokeKey(keyId);
  for (let i = 1; i < 50; i++) await srv.admin.issueKey(accountId, { name: `k${i}` });
  const over = await srv.rest('POST', `/admin/accounts/${accountId}/keys`, { key: ADMIN_TOKEN, body: { name: 'one too many' } });
  expect({ status: over.status, error: over.body.error, details: over.body.details }).toEqual({ status: 403, error: 'FORBIDDEN', details: { limit: 50 } });
  expect(((await srv.admin.usage(accountId)) as unknown as { keys: unknown[] }).keys).toHaveLength(50);
});
