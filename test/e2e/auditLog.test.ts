import { ADMIN_TOKEN, startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { dashboardGql, signIn } from '../helpers/dashboard';

/**
 * The audit log against the real service and the shared
 * devnets: keys issued and revoked by the operator and by a dashboard
 * session, intents accepted with a key and finished by the engine, each on
 * record with its actor, filtered and paged over REST and GraphQL, scoped to
 * the account, never holding a key.
 */
let srv: TestServer;
let acct: TestAccount;
let readKey: { id: string; key: string };
let revoked: { id: string; key: string };
let failedIntent: { walletId: string; intentId: string };
let completedIntent: { walletId: string; intentId: string };
/** Every full key this file has seen: none may ever appear in an audit answer. */
const keys: string[] = [];
const FULL_KEY = /svc_sk_[0-9a-f]{64}/;

const EVENTS_GQL = `query($first: Int, $after: String, $type: AuditEventType, $walletId: ID, $intentId: ID, $since: DateTime) {
  auditEvents(first: $first, after: $after, type: $type, walletId: $walletId, intentId: $intentId, since: $since) {
    edges { cursor node { id at type actor { type id } subject { walletId intentId policyId keyId } details } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** GraphQL enum ↔ REST type: INTENT_FAILED ↔ intent.failed, WALLET_POLICY_SET ↔ wallet.policy_set. */
const restType = (t: string) => t.toLowerCase().replace('_', '.');
const restActor = (t: string) => ({ API_KEY: 'apiKey', ADMIN: 'admin', SYSTEM: 'system', SESSION: 'session' })[t];

/** GET /v1/audit-events with `query`, as `key`; the answer, after checking it holds no key. */
async function events(query: Record<string, string | number> = {}, key = acct.key) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const a = await srv.rest('GET', `/v1/audit-events${qs ? `?${qs}` : ''}`, { key });
  expectNoSecret(a.text);
  return a;
}

function expectNoSecret(text: string): void {
  expect(text).not.toMatch(FULL_KEY);
  for (const k of keys) expect(text).not.toContain(k);
}

/** Polls `check` until it returns a value (not undefined), or fails after `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function wallet(userId: string, fund?: string): Promise<string> {
  const w = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId } });
  expect(w.status).toBe(201);
  if (fund) {
    const m = await srv.rest('POST', '/admin/sandbox/mint', {
      key: ADMIN_TOKEN,
      body: { chain: 'base-sepolia', asset: 'USDC', address: w.body.address, amount: fund },
    });
    expect(m.status).toBe(200);
  }
  return w.body.id;
}

async function lend(walletId: string, amount: number): Promise<string> {
  const r = await srv.rest('POST', '/v1/intents', { key: acct.key, body: { walletId, action: 'lend', amount, chain: 'base-sepolia' } });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** Waits for the intent to be final, then for its audit event of `type`. */
async function finalEvent(intentId: string, type: string) {
  await until(`intent ${intentId} final`, async () => {
    const r = await srv.rest('GET', `/v1/intents/${intentId}`, { key: acct.key });
    return ['completed', 'failed'].includes(r.body.status) ? r.body : undefined;
  });
  return until(`${type} of ${intentId}`, async () => (await events({ intentId, type })).body.events[0]);
}

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
  acct = await srv.admin.createAccount({ plan: 'enterprise' });
  readKey = await srv.admin.issueKey(acct.accountId, { name: 'auditor', scopes: ['read'] });
  revoked = await srv.admin.issueKey(acct.accountId, { name: 'to revoke' });
  await srv.admin.revokeKey(revoked.id);
  keys.push(acct.key, readKey.key, revoked.key);
  const unfunded = await wallet('audit-unfunded');
  failedIntent = { walletId: unfunded, intentId: await lend(unfunded, 5) };
  const funded = await wallet('audit-funded', '20');
  completedIntent = { walletId: funded, intentId: await lend(funded, 10) };
}, 120_000);
afterAll(async () => {
  await srv?.stop();
});

describe('what is recorded', () => {
  test('behavior: keys issued and revoked through the admin API are on record with actor admin, their id and display prefix (never the key)', async () => {
    const a = await events({ type: 'apikey.created' });
    expect(a.status).toBe(200);
    const created = a.body.events;
    // the account's first key (created with the account), the read-only key, the revoked one
    expect(created.map((e: any) => e.subject.keyId).sort()).toEqual([revoked.id, readKey.id, acct.keyId].sort());
    const ats = created.map((e: any) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    for (const e of created) {
      expect(e.actor).toEqual({ type: 'admin', id: null });
      expect(e.id).toMatch(/^svc_audit_[0-9a-f]{32}$/);
      expect(Object.keys(e).sort()).toEqual(['actor', 'at', 'details', 'id', 'subject', 'type']);
    }
    expect(created.find((e: any) => e.subject.keyId === readKey.id).details).toEqual({ prefix: readKey.key.slice(0, 11), name: 'auditor', scopes: ['read'] });
    const revokedEvents = (await events({ type: 'apikey.revoked' })).body.events;
    expect(revokedEvents).toHaveLength(1);
    expect(revokedEvents[0]).toMatchObject({
      type: 'apikey.revoked',
      actor: { type: 'admin', id: null },
      subject: { keyId: revoked.id },
      details: { prefix: revoked.key.slice(0, 11), name: 'to revoke' },
    });
  });

  test('behavior: revoking a key again records nothing more', async () => {
    const again = await srv.rest('DELETE', `/admin/keys/${revoked.id}`, { key: ADMIN_TOKEN });
    expect(again.status).toBe(204);
    expect((await events({ type: 'apikey.revoked' })).body.events).toHaveLength(1);
  });

  test('behavior: an intent accepted with a key is intent.created by that key; an unfunded lend then fails in planning: intent.failed by the system with the error code and message', async () => {
    const failed = await finalEvent(failedIntent.intentId, 'intent.failed');
    expect(failed).toMatchObject({
      type: 'intent.failed',
      actor: { type: 'system', id: null },
      subject: failedIntent,
      details: { action: 'lend', code: 'INSUFFICIENT_FUNDS' },
    });
    expect(typeof failed.details.message).toBe('string');
    const created = (await events({ intentId: failedIntent.intentId, type: 'intent.created' })).body.events;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      actor: { type: 'apiKey', id: acct.keyId },
      subject: failedIntent,
      details: { action: 'lend', amount: '5', asset: 'USDC', chain: 'base-sepolia' },
    });
    // both, newest first, and nothing else about this intent
    const both = (await events({ intentId: failedIntent.intentId })).body.events;
    expect(both.map((e: any) => e.type)).toEqual(['intent.failed', 'intent.created']);
  });

  test('behavior: a funded lend completes: intent.completed by the system with finalAmount and apy', async () => {
    const completed = await finalEvent(completedIntent.intentId, 'intent.completed');
    expect(completed).toMatchObject({
      actor: { type: 'system', id: null },
      subject: completedIntent,
      details: { action: 'lend', asset: 'USDC', finalAmount: '10' },
    });
    expect(typeof completed.details.apy).toBe('number');
    expect(completed.details.apy).toBeGreaterThan(0);
  });

  test('behavior: a dashboard session creating and revoking a key is on record with actor session (the user id), and the session may read the log', async () => {
    const jar = await signIn(srv.url, `audit-${Date.now().toString(36)}@example.com`);
    const made = await dashboardGql(srv.url, jar, 'mutation { createApiKey(name: "from dashboard") { key apiKey { id } } }');
    expect(made.body.errors).toBeUndefined();
    const keyId = made.body.data.createApiKey.apiKey.id;
    keys.push(made.body.data.createApiKey.key);
    const gone = await dashboardGql(srv.url, jar, 'mutation($id: ID!) { revokeApiKey(id: $id) { status } }', { id: keyId });
    expect(gone.body.errors).toBeUndefined();
    const read = await dashboardGql(srv.url, jar, EVENTS_GQL, { first: 10 });
    expect(read.body.errors).toBeUndefined();
    expectNoSecret(JSON.stringify(read.body));
    const nodes = read.body.data.auditEvents.edges.map((e: any) => e.node);
    expect(nodes.map((n: any) => n.type)).toEqual(['APIKEY_REVOKED', 'APIKEY_CREATED']);
    for (const n of nodes) {
      expect(n.actor.type).toBe('SESSION');
      expect(n.actor.id).toMatch(/^user_[0-9a-f]{32}$/);
      expect(n.subject.keyId).toBe(keyId);
    }
    expect(nodes[0].actor.id).toBe(nodes[1].actor.id);
  });
});

describe('reading the log', () => {
  test('behavior: filters by type, walletId, intentId and since, alone and together; newest first', async () => {
    await finalEvent(failedIntent.intentId, 'intent.failed');
    await finalEvent(completedIntent.intentId, 'intent.completed');
    const all = (await events({ limit: 100 })).body.events;
    const ats = all.map((e: any) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    expect(all.map((e: any) => e.type).sort()).toEqual(
      ['apikey.created', 'apikey.created', 'apikey.created', 'apikey.revoked', 'intent.created', 'intent.created', 'intent.completed', 'intent.failed'].sort(),
    );

    const created = (await events({ type: 'intent.created' })).body.events;
    expect(created.map((e: any) => e.subject.intentId).sort()).toEqual([failedIntent.intentId, completedIntent.intentId].sort());
    const byWallet = (await events({ walletId: completedIntent.walletId })).body.events;
    expect(byWallet.map((e: any) => e.type)).toEqual(['intent.completed', 'intent.created']);
    const byBoth = (await events({ walletId: completedIntent.walletId, type: 'intent.created' })).body.events;
    expect(byBoth).toHaveLength(1);
    expect((await events({ walletId: completedIntent.walletId, intentId: failedIntent.intentId })).body.events).toEqual([]);

    // since is inclusive: from the newest event's instant, that event (and any sharing its instant) only
    const newest = all[0];
    const sinceNewest = (await events({ since: newest.at })).body.events;
    expect(sinceNewest.map((e: any) => e.id)).toEqual(all.filter((e: any) => e.at >= newest.at).map((e: any) => e.id));
    expect((await events({ since: new Date(Date.now() + 3_600_000).toISOString() })).body.events).toEqual([]);
    expect((await events({ since: '2020-01-01', limit: 100 })).body.events).toEqual(all);
    // an offset is read as the instant it names
    const plusTwo = new Date(Date.parse(newest.at)).toISOString().replace('Z', '+00:00');
    expect((await events({ since: plusTwo })).body.events.map((e: any) => e.id)).toEqual(sinceNewest.map((e: any) => e.id));
  });

  test('behavior: pages of 3 by nextCursor walk the whole log once, with no gap or repeat; the last page says nextCursor null', async () => {
    const all = (await events({ limit: 100 })).body.events.map((e: any) => e.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await events({ limit: 3, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      expect(page.body.events.length).toBeLessThanOrEqual(3);
      walked.push(...page.body.events.map((e: any) => e.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 20);
    expect(walked).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 3));
    // a page that fits everything has no next cursor; a full page followed by nothing neither
    expect((await events({ limit: 100 })).body.nextCursor).toBeNull();
    expect((await events({ limit: all.length })).body.nextCursor).toBeNull();
    expect((await events({ limit: all.length - 1 })).body.nextCursor).toEqual(expect.any(String));
  });

  test('behavior: a read-only key lists the log (a read), and pays 1 credit per page; a key without the read scope is 403', async () => {
    const before = await srv.admin.usage(acct.accountId);
    const a = await events({ limit: 5 }, readKey.key);
    expect(a.status).toBe(200);
    expect(a.body.events).toHaveLength(5);
    expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(before.credits.used + 1);
    const writeOnly = await srv.admin.issueKey(acct.accountId, { scopes: ['write'] });
    keys.push(writeOnly.key);
    const refused = await events({}, writeOnly.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('FORBIDDEN');
  });

  test("error: another account sees none of these events, even naming this account's wallet or intent", async () => {
    const other = await srv.admin.createAccount({ plan: 'pro' });
    keys.push(other.key);
    const mine = (await events({ limit: 100 })).body.events.map((e: any) => e.id);
    const theirs = await events({ limit: 100 }, other.key);
    expect(theirs.status).toBe(200);
    // their own account's creation only
    expect(theirs.body.events.map((e: any) => e.subject.keyId)).toEqual([other.keyId]);
    expect(theirs.body.events.some((e: any) => mine.includes(e.id))).toBe(false);
    expect((await events({ walletId: completedIntent.walletId }, other.key)).body.events).toEqual([]);
    expect((await events({ intentId: failedIntent.intentId }, other.key)).body.events).toEqual([]);
    const gql = await srv.gql(EVENTS_GQL, { first: 100, walletId: completedIntent.walletId }, other.key);
    expect(gql.body.data.auditEvents.edges).toEqual([]);
  });

  test('error: a bad query is 400 INVALID_REQUEST naming the parameter, and costs nothing', async () => {
    const before = (await srv.admin.usage(acct.accountId)).credits.used;
    const cases: [Record<string, string | number>, string][] = [
      [{ foo: 'bar' }, 'foo'],
      [{ type: 'intent.exploded' }, 'type'],
      [{ walletId: 'svc_wallet_nothex' }, 'walletId'],
      [{ intentId: 'intent_123' }, 'intentId'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: '2026-02-30' }, 'since'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
    ];
    for (const [query, path] of cases) {
      const a = await events(query);
      expect([JSON.stringify(query), a.status, a.body.error]).toEqual([JSON.stringify(query), 400, 'INVALID_REQUEST']);
      expect(a.body.details.issues.map((i: any) => i.path)).toEqual([path]);
    }
    const repeated = await srv.rest('GET', '/v1/audit-events?type=intent.failed&type=intent.created', { key: acct.key });
    expect(repeated.status).toBe(400);
    expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(before);
  });

  test('error: without a key 401; the route is under admission like every /v1 route', async () => {
    const a = await srv.rest('GET', '/v1/audit-events');
    expect(a.status).toBe(401);
    const wrong = await srv.rest('GET', '/v1/audit-events', { key: 'svc_sk_' + '0'.repeat(64) });
    expect(wrong.status).toBe(401);
  });
});

describe('GraphQL parity', () => {
  test('behavior: auditEvents returns the same events as REST, in the same order, with the same filters and pages', async () => {
    const rest = (await events({ limit: 100 })).body.events;
    const gql = await srv.gql(EVENTS_GQL, { first: 100 }, acct.key);
    expect(gql.body.errors).toBeUndefined();
    expectNoSecret(gql.text);
    const nodes = gql.body.data.auditEvents.edges.map((e: any) => e.node);
    const asRest = nodes.map((n: any) => ({
      id: n.id,
      at: n.at,
      type: restType(n.type),
      actor: { type: restActor(n.actor.type), id: n.actor.id },
      subject: Object.fromEntries(Object.entries(n.subject).filter(([, v]) => v !== null)),
      details: n.details,
    }));
    expect(asRest).toEqual(rest);
    expect(gql.body.data.auditEvents.pageInfo).toEqual({ hasNextPage: false, endCursor: gql.body.data.auditEvents.edges.at(-1).cursor });

    const failed = await srv.gql(EVENTS_GQL, { type: 'INTENT_FAILED', walletId: failedIntent.walletId }, acct.key);
    expect(failed.body.data.auditEvents.edges.map((e: any) => e.node.subject.intentId)).toEqual([failedIntent.intentId]);

    // pages of 3 by endCursor: the same walk as REST's nextCursor
    const walked: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const page: any = await srv.gql(EVENTS_GQL, { first: 3, after }, acct.key);
      walked.push(...page.body.data.auditEvents.edges.map((e: any) => e.node.id));
      if (!page.body.data.auditEvents.pageInfo.hasNextPage) break;
      after = page.body.data.auditEvents.pageInfo.endCursor;
    }
    expect(walked).toEqual(rest.map((e: any) => e.id));
  });

  test('error: GraphQL names its own arguments in validation errors (first, after), as INVALID_REQUEST', async () => {
    const bad = await srv.gql(EVENTS_GQL, { first: 0 }, acct.key);
    expect(bad.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
    expect(bad.body.errors[0].extensions.details.issues.map((i: any) => i.path)).toEqual(['first']);
    const cursor = await srv.gql(EVENTS_GQL, { after: 'nope' }, acct.key);
    expect(cursor.body.errors[0].extensions.details.issues.map((i: any) => i.path)).toEqual(['after']);
  });
});
