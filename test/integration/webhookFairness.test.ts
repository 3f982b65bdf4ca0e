import { fitInRateWindow, startTestServer, type TestServer } from '../helpers/server';
import { dashboardGql, signIn } from '../helpers/dashboard';
import { startReceiver, type Receiver } from '../helpers/webhookReceiver';
import { creditMonth } from '../../src/app/accounts/credits';

/**
 * One account cannot slow another's webhooks, nor queue deliveries for free:
 * the real service on the shared devnets and real HTTP receivers on
 * 127.0.0.1, one of which never answers.
 */

let srv: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  srv = await startTestServer({ WEBHOOK_RETRY_BASE_MS: '50' });
});
afterAll(async () => {
  await srv?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function endpoint(key: string, url: string): Promise<string> {
  const made = await srv.rest('POST', '/v1/webhooks', { key, body: { url, events: ['intent.completed'] } });
  expect(made.status).toBe(201);
  return made.body.id;
}

test('behavior: while 16 test events of account A hang at an endpoint that never answers, account B’s delivery arrives (before any of A’s attempts has ended)', async () => {
  const log: Receiver['log'] = [];
  const hanging = await startReceiver('a', () => null, log);
  const fine = await startReceiver('b', () => 204, log);
  receivers.push(hanging, fine);
  const a = await srv.admin.createAccount({ plan: 'pro' });
  const b = await srv.admin.createAccount({ plan: 'pro' });
  const hookA = await endpoint(a.key, hanging.url);
  const hookB = await endpoint(b.key, fine.url);
  for (let i = 0; i < 16; i++) expect((await srv.rest('POST', `/v1/webhooks/${hookA}/test`, { key: a.key })).status).toBe(202);
  await hanging.arrived(1);

  const sent = await srv.rest('POST', `/v1/webhooks/${hookB}/test`, { key: b.key });
  expect(sent.status).toBe(202);
  await fine.arrived(1);
  // before: one worker, 4 attempts at a time, oldest first: B's waited for A's attempts to time out (10 s each round)
  const bArrived = log.findIndex((l) => l.at === 'b');
  const before = log.slice(0, bArrived);
  expect(before.filter((l) => l.event.type === 'received').length).toBeGreaterThanOrEqual(1);
  expect(before.filter((l) => l.event.type === 'closed')).toEqual([]);
  expect(JSON.parse(fine.received[0]!.body)).toMatchObject({ type: 'webhook.test', data: { webhookId: hookB } });
  // A holds a few slots, not all of them: most of its test events are still queued
  expect(hanging.received.length).toBeLessThan(16);
}, 60_000);

test('behavior: while 5 accounts × 2 endpoints that never answer × 4 test events hang, one more account’s test event arrives before any of their attempts has ended (it waited 7.7 s for one to time out)', async () => {
  const log: Receiver['log'] = [];
  const fine = await startReceiver('b', () => 204, log);
  receivers.push(fine);
  const sends: Promise<unknown>[] = [];
  for (let a = 0; a < 5; a++) {
    const account = await srv.admin.createAccount({ plan: 'pro' });
    for (let e = 0; e < 2; e++) {
      const hanging = await startReceiver(`hang-${a}-${e}`, () => null, log);
      receivers.push(hanging);
      const hook = await endpoint(account.key, hanging.url);
      for (let i = 0; i < 4; i++) sends.push(srv.rest('POST', `/v1/webhooks/${hook}/test`, { key: account.key }).then((r) => expect(r.status).toBe(202)));
    }
  }
  await Promise.all(sends);
  // every hanging account has attempts in flight (up to 4 each, 2 per endpoint, the last 4 of the 16 slots kept for accounts with none)
  const accountsInFlight = () => new Set(log.filter((l) => l.event.type === 'received').map((l) => l.at.split('-')[1])).size;
  await new Promise<void>((resolve) => {
    const check = () => (accountsInFlight() === 5 ? resolve() : setTimeout(check, 20));
    check();
  });
  const b = await srv.admin.createAccount({ plan: 'pro' });
  const hookB = await endpoint(b.key, fine.url);
  expect((await srv.rest('POST', `/v1/webhooks/${hookB}/test`, { key: b.key })).status).toBe(202);
  await fine.arrived(1);
  const before = log.slice(
    0,
    log.findIndex((l) => l.at === 'b'),
  );
  expect(before.filter((l) => l.event.type === 'closed')).toEqual([]);
  expect(before.filter((l) => l.event.type === 'received').length).toBeGreaterThanOrEqual(5);
}, 60_000);

test('behavior: a test event costs a credit and counts in the account’s rate window, from a dashboard session (it was free) as from an API key over REST and GraphQL', async () => {
  const hook = await startReceiver('credits');
  receivers.push(hook);
  await fitInRateWindow(15_000);
  const jar = await signIn(srv.url, `fair-${Date.now().toString(36)}@example.com`);
  const account = async () =>
    (await dashboardGql(srv.url, jar, '{ viewer { account { id usage { credits { used } rateWindow { used } } } } }')).body.data.viewer.account;
  const made = await dashboardGql(
    srv.url,
    jar,
    'mutation($url: String!) { createWebhookEndpoint(input: { url: $url, events: [INTENT_COMPLETED] }) { endpoint { id } } }',
    { url: hook.url },
  );
  const id: string = made.body.data.createWebhookEndpoint.endpoint.id;
  const before = await account();

  const viaSession = await dashboardGql(srv.url, jar, 'mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id status } }', { id });
  expect(viaSession.body.data.sendTestWebhook).toMatchObject({ status: 'PENDING' });
  const after = await account();
  expect(after.usage.credits.used).toBe(before.usage.credits.used + 1);
  expect(after.usage.rateWindow.used).toBe(before.usage.rateWindow.used + 1);
  // the session's other webhook fields stay free
  await dashboardGql(srv.url, jar, '{ webhookEndpoints { id } }');
  expect((await account()).usage.credits.used).toBe(after.usage.credits.used);

  const { key, accountId } = await srv.admin.createAccount({ plan: 'pro' });
  const keyHook = await endpoint(key, hook.url);
  const start = (await srv.admin.usage(accountId)).credits.used;
  expect((await srv.rest('POST', `/v1/webhooks/${keyHook}/test`, { key })).status).toBe(202);
  expect((await srv.admin.usage(accountId)).credits.used).toBe(start + 1);
  const viaKey = await srv.gql('mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id } }', { id: keyHook }, key);
  expect(viaKey.body.errors).toBeUndefined();
  expect((await srv.admin.usage(accountId)).credits.used).toBe(start + 2);
});

test('error: a session whose account has no credits left gets CREDITS_EXHAUSTED for a test event, and nothing is queued', async () => {
  const hook = await startReceiver('exhausted');
  receivers.push(hook);
  const jar = await signIn(srv.url, `fair-empty-${Date.now().toString(36)}@example.com`);
  const viewer = (await dashboardGql(srv.url, jar, '{ viewer { account { id usage { credits { used limit } } } } }')).body.data.viewer.account;
  const made = await dashboardGql(
    srv.url,
    jar,
    'mutation($url: String!) { createWebhookEndpoint(input: { url: $url, events: [INTENT_COMPLETED] }) { endpoint { id } } }',
    { url: hook.url },
  );
  const id: string = made.body.data.createWebhookEndpoint.endpoint.id;
  // the month's credits spent, straight into the counter (as many API calls would)
  const { store, clock } = srv.service.deps;
  const { month } = creditMonth(clock.now());
  await store.usage.increment(
    `credits:${viewer.id}:${month}`,
    viewer.usage.credits.limit - viewer.usage.credits.used,
    new Date(clock.now().getTime() + 62 * 86_400_000),
  );

  const refused = await dashboardGql(srv.url, jar, 'mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id } }', { id });
  expect(refused.body.errors?.[0]?.extensions?.code).toBe('CREDITS_EXHAUSTED');
  const logged = await dashboardGql(srv.url, jar, 'query($id: ID!) { webhookDeliveries(endpointId: $id, first: 5) { edges { node { id } } } }', { id });
  expect(logged.body.data.webhookDeliveries.edges).toEqual([]);
});
