import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type Json, type TestServer } from '../helpers/server';
import { intentHttp } from './engine/intentsHttpHelpers';
import { REFUSED_DESTINATION } from '../../src/app/webhooks/egress';

/**
 * Webhooks end to end: the real service on the shared devnets, and a real
 * HTTP receiver on 127.0.0.1 (loopback is allowed in a sandbox). Every
 * delivery received is verified with the `standardwebhooks` package against
 * the secret the creation answered once. Retries run on a short schedule
 * (WEBHOOK_RETRY_BASE_MS=50: 50 ms, 300 ms, 1.2 s, …).
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A webhook receiver: records every request, answers `answer()` (a status) to each. */
async function receiver(
  answer: (n: number) => number = () => 204,
): Promise<{ url: string; received: Received[]; server: Server; answer: (n: number) => number; close(): Promise<void> }> {
  const received: Received[] = [];
  const r = {
    url: '',
    received,
    server: undefined as unknown as Server,
    answer,
    close: () => new Promise<void>((res) => r.server.close(() => res())),
  };
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = r.answer(received.length);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((res) => r.server.listen(0, '127.0.0.1', () => res()));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks`;
  return r;
}

/** The payload, after checking its signature with the standardwebhooks package (throws when it does not verify). */
function verified(secret: string, m: Received): Json {
  return new Webhook(secret).verify(m.body, {
    'webhook-id': String(m.headers['webhook-id']),
    'webhook-timestamp': String(m.headers['webhook-timestamp']),
    'webhook-signature': String(m.headers['webhook-signature']),
  });
}

async function until<T>(what: string, read: () => Promise<T> | T, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${ms} ms; last: ${JSON.stringify(v)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks on the sandbox (memory store)', () => {
  let srv: TestServer;
  const receivers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    srv = await startTestServer({ WEBHOOK_RETRY_BASE_MS: '50' });
  });
  afterAll(async () => {
    await srv?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  test('behavior: a lend intent is delivered as intent.updated for every status and intent.completed, each signed (verified with standardwebhooks), its data the intent as GET answers it', async () => {
    const hook = await receiver();
    receivers.push(hook);
    const { key } = await srv.admin.createAccount({ plan: 'pro' });
    const created = await srv.rest('POST', '/v1/webhooks', {
      key,
      body: { url: hook.url, events: ['intent.updated', 'intent.completed', 'intent.failed'], description: 'orders' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^svc_webhook_[0-9a-f]{32}$/),
      url: hook.url,
      events: ['intent.updated', 'intent.completed', 'intent.failed'],
      description: 'orders',
    });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^whsec_/);
    // the secret is shown once: never in a read
    const read = await srv.rest('GET', `/v1/webhooks/${created.body.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(secret.slice(6));
    expect(read.body.secret).toBeUndefined();
    const list = await srv.rest('GET', '/v1/webhooks', { key });
    expect(list.body.webhooks.map((w: Json) => w.id)).toEqual([created.body.id]);
    expect(list.text).not.toContain(secret.slice(6));

    const http = intentHttp(srv, key);
    const wallet = await http.fundedWallet('webhook', { 'arbitrum-sepolia': '2' });
    const intent = await http.run({ walletId: wallet.id, action: 'lend', amount: '1', chain: 'arbitrum-sepolia' });
    expect(intent.status).toBe('completed');

    const mine = () => hook.received.filter((m) => JSON.parse(m.body).data?.id === intent.id);
    await until(
      'intent.completed delivered',
      mine,
      (ms) =>
        ms.some((m) => JSON.parse(m.body).type === 'intent.completed') &&
        ms.some((m) => JSON.parse(m.body).type === 'intent.updated' && JSON.parse(m.body).data.status === 'completed'),
    );
    const payloads = mine().map((m) => verified(secret, m));
    const updates = payloads.filter((p) => p.type === 'intent.updated').map((p) => p.data.status);
    expect(new Set(updates)).toEqual(new Set(['pending', 'planning', 'executing', 'completed']));
    const completed = payloads.find((p) => p.type === 'intent.completed');
    const now = await srv.rest('GET', `/v1/intents/${intent.id}`, { key });
    expect(completed.data).toEqual(now.body);
    expect(Date.parse(completed.timestamp)).not.toBeNaN();
    // distinct messages, each with its own id; a tampered body does not verify
    const ids = mine().map((m) => m.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(() => verified(secret, { ...mine()[0]!, body: mine()[0]!.body.replace('"lend"', '"withdraw"') })).toThrow();

    // the delivery log shows them delivered
    const log = await until(
      'deliveries recorded as delivered',
      async () => (await srv.rest('GET', `/v1/webhooks/${created.body.id}/deliveries?first=100`, { key })).body,
      (b: Json) =>
        b.deliveries?.filter((d: Json) => d.payload?.data?.id === intent.id).length === ids.length && b.deliveries.every((d: Json) => d.status === 'delivered'),
    );
    expect(log.deliveries.find((d: Json) => d.eventType === 'intent.completed')).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
    });
  }, 90_000);

  test('behavior: an endpoint answering 500 twice, then 200, gets the same message (same webhook-id, valid signatures) three times; the log shows it delivered after 3 attempts', async () => {
    const hook = await receiver((n) => (n < 2 ? 500 : 200));
    receivers.push(hook);
    const { key } = await srv.admin.createAccount({ plan: 'pro' });
    const created = await srv.rest('POST', '/v1/webhooks', { key, body: { url: hook.url, events: ['intent.completed'] } });
    expect(created.status).toBe(201);
    const test = await srv.rest('POST', `/v1/webhooks/${created.body.id}/test`, { key });
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      webhookId: created.body.id,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
    });
    const done = await until(
      'test event delivered',
      async () => (await srv.rest('GET', `/v1/webhooks/${created.body.id}/deliveries`, { key })).body.deliveries[0],
      (d: Json) => d?.status === 'delivered',
    );
    expect(done).toMatchObject({ id: test.body.id, status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    expect(hook.received.map((m) => m.answered)).toEqual([500, 500, 200]);
    expect(new Set(hook.received.map((m) => m.headers['webhook-id']))).toEqual(new Set([test.body.id]));
    for (const m of hook.received)
      expect(verified(created.body.secret, m)).toEqual({
        type: 'webhook.test',
        timestamp: test.body.payload.timestamp,
        data: { webhookId: created.body.id, message: expect.any(String) },
      });
    // the retries waited (50 ms, then 300 ms): the timestamps do not go backwards
    const stamps = hook.received.map((m) => Number(m.headers['webhook-timestamp']));
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  }, 60_000);

  test('behavior: URLs refused at creation (400 naming url): private, link-local, unspecified, other schemes, credentials; another account sees 404 WEBHOOK_NOT_FOUND; delete drops the endpoint', async () => {
    const { key, accountId } = await srv.admin.createAccount({ plan: 'pro' });
    for (const url of [
      'http://10.0.0.1/h',
      'http://192.168.1.10/h',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/h',
      'http://0.0.0.0/h',
      'ftp://127.0.0.1/h',
      'http://u:p@127.0.0.1/h',
      'not a url',
    ]) {
      const a = await srv.rest('POST', '/v1/webhooks', { key, body: { url, events: ['intent.failed'] } });
      expect({ url, status: a.status, error: a.body.error, paths: a.body.details?.issues?.map((i: Json) => i.path) }).toEqual({
        url,
        status: 400,
        error: 'INVALID_REQUEST',
        paths: ['url'],
      });
    }
    const bad = await srv.rest('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/h', events: [] } });
    expect(bad.body.details.issues.map((i: Json) => i.path)).toEqual(['events']);
    const ok = await srv.rest('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/h', events: ['intent.failed'] } });
    expect(ok.status).toBe(201);
    const other = await srv.admin.createAccount({ plan: 'pro' });
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${ok.body.id}`],
      ['DELETE', `/v1/webhooks/${ok.body.id}`],
      ['POST', `/v1/webhooks/${ok.body.id}/test`],
      ['GET', `/v1/webhooks/${ok.body.id}/deliveries`],
    ] as const) {
      const a = await srv.rest(method, path, { key: other.key });
      expect({ path, method, status: a.status, error: a.body.error }).toEqual({ path, method, status: 404, error: 'WEBHOOK_NOT_FOUND' });
    }
    const reader = await srv.admin.issueKey(accountId, { scopes: ['read'] });
    expect((await srv.rest('GET', `/v1/webhooks/${ok.body.id}`, { key: reader.key })).status).toBe(200);
    for (const [method, path] of [
      ['DELETE', `/v1/webhooks/${ok.body.id}`],
      ['POST', `/v1/webhooks/${ok.body.id}/test`],
      ['POST', '/v1/webhooks'],
    ] as const) {
      const a = await srv.rest(method, path, {
        key: reader.key,
        body: method === 'POST' && path === '/v1/webhooks' ? { url: 'http://127.0.0.1:9/h', events: ['intent.failed'] } : undefined,
      });
      expect({ path, method, status: a.status, scope: a.body.details?.requiredScope }).toEqual({ path, method, status: 403, scope: 'write' });
    }
    expect((await srv.rest('DELETE', `/v1/webhooks/${ok.body.id}`, { key })).status).toBe(204);
    expect((await srv.rest('GET', `/v1/webhooks/${ok.body.id}`, { key })).status).toBe(404);
  });

  test('behavior: a refused URL is answered with the same words whatever the rule, never the address a name resolved to', async () => {
    const { key } = await srv.admin.createAccount({ plan: 'pro' });
    const messages = new Set<string>();
    for (const url of [
      'http://10.0.0.1/h',
      'http://169.254.169.254/latest/meta-data',
      'http://[::a00:1]/h',
      'http://[2002:a9fe:a9fe::1]/h',
      'http://[fec0::1]/h',
    ]) {
      const a = await srv.rest('POST', '/v1/webhooks', { key, body: { url, events: ['intent.failed'] } });
      expect({ url, status: a.status }).toEqual({ url, status: 400 });
      messages.add(a.body.details.issues[0].message);
      for (const leak of ['10.0.0.1', '169.254', 'private', 'link-local', 'loopback']) expect(a.text).not.toContain(leak);
    }
    expect([...messages]).toEqual([`url ${REFUSED_DESTINATION}`]);
  });

  test('behavior: the delivery log says "not delivered" and the status class only: an endpoint answering 401 and a closed port are told apart by nothing more', async () => {
    const hook = await receiver(() => 401);
    receivers.push(hook);
    // a port nothing listens on: bound, then closed again
    const closed = await receiver();
    await closed.close();
    const { key } = await srv.admin.createAccount({ plan: 'pro' });
    const lastErrors: Record<string, Json> = {};
    for (const [name, url] of [
      ['answered401', hook.url],
      ['refused', closed.url],
    ] as const) {
      const created = await srv.rest('POST', '/v1/webhooks', { key, body: { url, events: ['intent.completed'] } });
      expect(created.status).toBe(201);
      expect((await srv.rest('POST', `/v1/webhooks/${created.body.id}/test`, { key })).status).toBe(202);
      const d = await until(
        `${name}: an attempt recorded`,
        async () => (await srv.rest('GET', `/v1/webhooks/${created.body.id}/deliveries`, { key })).body.deliveries[0],
        (x: Json) => x?.attempts >= 1,
      );
      lastErrors[name] = d.lastError;
      expect(JSON.stringify(d)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|answered/);
    }
    expect(lastErrors).toEqual({ answered401: 'not delivered (4xx)', refused: 'not delivered (no answer)' });
  });

  test('behavior: creating and deleting an endpoint is in the audit log, by REST and GraphQL alike: actor, webhook id, the URL host; never the secret or the path', async () => {
    const { key, keyId } = await srv.admin.createAccount({ plan: 'pro' });
    const url = 'http://127.0.0.1:9/hooks/receiver-token-0123';
    const rest = await srv.rest('POST', '/v1/webhooks', { key, body: { url, events: ['intent.failed'] } });
    expect(rest.status).toBe(201);
    expect((await srv.rest('DELETE', `/v1/webhooks/${rest.body.id}`, { key })).status).toBe(204);
    const g = await srv.gql(
      'mutation($url: String!) { createWebhookEndpoint(input: { url: $url, events: [INTENT_COMPLETED] }) { secret endpoint { id } } }',
      { url },
      key,
    );
    expect(g.body.errors).toBeUndefined();
    const gqlId: string = g.body.data.createWebhookEndpoint.endpoint.id;
    expect((await srv.gql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id: gqlId }, key)).body.data.deleteWebhookEndpoint).toBe(true);

    const log = await srv.rest('GET', '/v1/audit-events', { key });
    expect(log.status).toBe(200);
    const hooks = log.body.events
      .filter((e: Json) => e.type.startsWith('webhook.'))
      .map((e: Json) => ({ type: e.type, actor: e.actor, subject: e.subject, details: e.details }));
    const actor = { type: 'apiKey', id: keyId };
    expect(hooks).toEqual([
      { type: 'webhook.deleted', actor, subject: { webhookId: gqlId }, details: { host: '127.0.0.1:9' } },
      { type: 'webhook.created', actor, subject: { webhookId: gqlId }, details: { host: '127.0.0.1:9', events: ['intent.completed'] } },
      { type: 'webhook.deleted', actor, subject: { webhookId: rest.body.id }, details: { host: '127.0.0.1:9' } },
      { type: 'webhook.created', actor, subject: { webhookId: rest.body.id }, details: { host: '127.0.0.1:9', events: ['intent.failed'] } },
    ]);
    for (const secret of [rest.body.secret as string, g.body.data.createWebhookEndpoint.secret as string]) expect(log.text).not.toContain(secret.slice(6));
    expect(log.text).not.toContain('receiver-token');
    const gqlLog = await srv.gql('{ auditEvents(first: 10, type: WEBHOOK_CREATED) { edges { node { type subject { webhookId } } } } }', {}, key);
    expect(gqlLog.body.data?.auditEvents.edges.map((e: Json) => e.node)).toEqual([
      { type: 'WEBHOOK_CREATED', subject: { webhookId: gqlId } },
      { type: 'WEBHOOK_CREATED', subject: { webhookId: rest.body.id } },
    ]);
  });

  test('behavior: GraphQL: create (secret once), list, send a test event, read the delivery log, delete', async () => {
    const hook = await receiver();
    receivers.push(hook);
    const { key } = await srv.admin.createAccount({ plan: 'pro' });
    const c = await srv.gql(
      'mutation($url: String!) { createWebhookEndpoint(input: { url: $url, events: [INTENT_COMPLETED, INTENT_FAILED] }) { secret endpoint { id url events description } } }',
      { url: hook.url },
      key,
    );
    expect(c.body.errors).toBeUndefined();
    const { secret, endpoint } = c.body.data.createWebhookEndpoint;
    expect(endpoint).toMatchObject({ url: hook.url, events: ['INTENT_COMPLETED', 'INTENT_FAILED'], description: null });
    const l = await srv.gql('{ webhookEndpoints { id events } }', {}, key);
    expect(l.body.data.webhookEndpoints).toEqual([{ id: endpoint.id, events: ['INTENT_COMPLETED', 'INTENT_FAILED'] }]);
    const t = await srv.gql('mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id eventType status } }', { id: endpoint.id }, key);
    expect(t.body.data.sendTestWebhook).toMatchObject({ eventType: 'WEBHOOK_TEST', status: 'PENDING' });
    await until(
      'delivered',
      () => hook.received.length,
      (n) => n >= 1,
    );
    expect(verified(secret, hook.received[0]!).type).toBe('webhook.test');
    const log = await until(
      'log shows delivered',
      async () =>
        (
          await srv.gql(
            'query($id: ID!) { webhookDeliveries(endpointId: $id, first: 5) { edges { node { id status attempts lastStatusCode payload } } pageInfo { hasNextPage } } }',
            { id: endpoint.id },
            key,
          )
        ).body,
      (b: Json) => b.data?.webhookDeliveries?.edges?.[0]?.node?.status === 'DELIVERED',
    );
    expect(log.data.webhookDeliveries.edges[0].node).toMatchObject({
      id: t.body.data.sendTestWebhook.id,
      attempts: 1,
      lastStatusCode: 204,
      payload: { type: 'webhook.test' },
    });
    const missing = await srv.gql('{ webhookEndpoint(id: "svc_webhook_00000000000000000000000000000000") { id } }', {}, key);
    expect(missing.body.errors[0].extensions.code).toBe('WEBHOOK_NOT_FOUND');
    const d = await srv.gql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id: endpoint.id }, key);
    expect(d.body.data.deleteWebhookEndpoint).toBe(true);
    expect((await srv.gql('{ webhookEndpoints { id } }', {}, key)).body.data.webhookEndpoints).toEqual([]);
  });
});

test('behavior: outside a sandbox-and-development setup (NODE_ENV=production) a loopback URL is refused too', async () => {
  const prod = await startTestServer({ NODE_ENV: 'production', DASHBOARD: 'off' });
  try {
    const { key } = await prod.admin.createAccount({ plan: 'pro' });
    for (const url of ['http://127.0.0.1:8080/h', 'http://[::1]/h', 'http://localhost/h']) {
      const a = await prod.rest('POST', '/v1/webhooks', { key, body: { url, events: ['intent.completed'] } });
      expect({ url, status: a.status, path: a.body.details?.issues?.[0]?.path, message: a.body.details?.issues?.[0]?.message }).toEqual({
        url,
        status: 400,
        path: 'url',
        message: `url ${REFUSED_DESTINATION}`,
      });
    }
  } finally {
    await prod.stop();
  }
});

const uri = process.env.MONGODB_URI;

/** `base` with its database path set to `db`, query options kept. */
function withDatabase(base: string, db: string): string {
  const [head, query] = base.split('?') as [string, string | undefined];
  const hosts = head.replace(/^mongodb(\+srv)?:\/\//, '').split('/')[0];
  const scheme = head.startsWith('mongodb+srv') ? 'mongodb+srv' : 'mongodb';
  return `${scheme}://${hosts}/${db}${query ? `?${query}` : ''}`;
}

(uri ? test : test.skip)(
  'behavior: deliveries survive a restart on the same MongoDB: an endpoint down before the restart gets the message after it, signed with the secret shown before',
  async () => {
    const dbName = `webhooks_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const env = { MONGODB_URI: withDatabase(uri!, dbName), KEY_VAULT_MASTER_KEY: randomBytes(32).toString('hex'), WEBHOOK_RETRY_BASE_MS: '50' };
    const hook = await receiver(() => 503);
    let srv: TestServer | undefined;
    try {
      srv = await startTestServer(env);
      expect(srv.service.deps.store.kind).toBe('mongo');
      const { key } = await srv.admin.createAccount({ plan: 'pro' });
      const created = await srv.rest('POST', '/v1/webhooks', { key, body: { url: hook.url, events: ['intent.updated'] } });
      expect(created.status).toBe(201);
      const queued = await srv.rest('POST', `/v1/webhooks/${created.body.id}/test`, { key });
      expect(queued.status).toBe(202);
      await until(
        'a failed attempt recorded',
        async () => (await srv!.rest('GET', `/v1/webhooks/${created.body.id}/deliveries`, { key })).body.deliveries[0],
        (d: Json) => d?.attempts >= 1 && d.lastStatusCode === 503,
      );
      await srv.stop();
      srv = undefined;
      const triedBefore = hook.received.length;
      expect(triedBefore).toBeGreaterThanOrEqual(1);

      hook.answer = () => 200;
      srv = await startTestServer(env);
      const done = await until(
        'delivered after the restart',
        async () => (await srv!.rest('GET', `/v1/webhooks/${created.body.id}/deliveries`, { key })).body.deliveries[0],
        (d: Json) => d?.status === 'delivered',
      );
      expect(done).toMatchObject({ id: queued.body.id, status: 'delivered', lastStatusCode: 200 });
      expect(done.attempts).toBeGreaterThan(triedBefore - 1);
      const last = hook.received[hook.received.length - 1]!;
      expect(last.answered).toBe(200);
      expect(last.headers['webhook-id']).toBe(queued.body.id);
      expect(verified(created.body.secret, last).type).toBe('webhook.test');
      // and the secret is not in the database in clear
      const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5_000 });
      try {
        await client.connect();
        const doc = await client.db(dbName).collection('webhookEndpoints').findOne({ id: created.body.id });
        expect(JSON.stringify(doc)).not.toContain(created.body.secret.slice(6));
      } finally {
        await client.close();
      }
    } finally {
      await srv?.stop();
      await hook.close();
      const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5_000 });
      try {
        await client.connect();
        await client
          .db(dbName)
          .dropDatabase()
          .catch(() => undefined);
      } finally {
        await client.close();
      }
    }
  },
  120_000,
);
