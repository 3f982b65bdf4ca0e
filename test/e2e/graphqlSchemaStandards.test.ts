import { startTestServer, type HttpAnswer, type Json, type TestAccount, type TestServer } from '../helpers/server';

/**
 * The schema's contract as a client meets it, on a started
 * service over both HTTP paths (the fast path for `application/json`, yoga
 * for `application/graphql-response+json`): a missing resource nulls only its
 * own field, `node(id:)` finds any Wallet, Intent or Policy of the caller's
 * account by its global id, and connections page both ways.
 */
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
});
afterAll(async () => {
  await srv?.stop();
});

const ACCEPTS = { 'fast path': 'application/json', yoga: 'application/graphql-response+json' } as const;

const gql = (acct: TestAccount, query: string, variables?: Record<string, unknown>, accept: string = ACCEPTS['fast path']) =>
  srv.gql(query, variables, acct.key, { Accept: accept });

const codes = (a: HttpAnswer): string[] => (a.body.errors ?? []).map((e: Json) => e.extensions.code);

describe('nullable by design: a missing resource nulls only its own field', () => {
  test.each(Object.entries(ACCEPTS))(
    'behavior: the sibling null test (%s): wallet(userId: "nobody") is null with WALLET_NOT_FOUND, yields still answers',
    async (_name, accept) => {
      const acct = await srv.admin.createAccount({ plan: 'pro' });
      const a = await gql(acct, '{ wallet(userId: "nobody") { id } yields { best { apy } } }', undefined, accept);
      expect(a.status).toBe(200);
      expect(a.body.data.wallet).toBeNull();
      expect(typeof a.body.data.yields.best.apy).toBe('number');
      expect(a.body.errors).toHaveLength(1);
      expect(a.body.errors[0]).toMatchObject({ path: ['wallet'], extensions: { code: 'WALLET_NOT_FOUND', status: 404, details: { userId: 'nobody' } } });
      // Credits are spent on successes only: the yields read, not the missing wallet.
      expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(1);
    },
  );

  test('behavior: each missing resource nulls its own field with its own error, the found ones answer', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const w = (await gql(acct, 'mutation { createWallet(input: { userId: "here" }) { id } }')).body.data.createWallet;
    const a = await gql(
      acct,
      `query($w: ID!) {
        found: walletById(id: $w) { userId }
        wallet(userId: "nobody") { id }
        walletById(id: "svc_wallet_00000000000000000000000000000000") { id }
        intent(id: "intent_00000000000000000000000000000000") { id }
        policy(id: "svc_policy_00000000000000000000000000000000") { id }
        balances(walletId: "svc_wallet_00000000000000000000000000000000") { totalValueUsd }
        intents(walletId: "svc_wallet_00000000000000000000000000000000") { edges { cursor } }
      }`,
      { w: w.id },
    );
    expect(a.body.data).toEqual({ found: { userId: 'here' }, wallet: null, walletById: null, intent: null, policy: null, balances: null, intents: null });
    expect(Object.fromEntries(a.body.errors.map((e: Json) => [e.path[0], e.extensions.code]))).toEqual({
      wallet: 'WALLET_NOT_FOUND',
      walletById: 'WALLET_NOT_FOUND',
      intent: 'INTENT_NOT_FOUND',
      policy: 'POLICY_NOT_FOUND',
      balances: 'WALLET_NOT_FOUND',
      intents: 'WALLET_NOT_FOUND',
    });
  });

  test('behavior: a refused mutation is null with its error; the other mutations of the operation keep their answers', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const a = await gql(acct, 'mutation { first: createWallet(input: { userId: "twice" }) { id } again: createWallet(input: { userId: "twice" }) { id } }');
    expect(a.body.data.first.id).toMatch(/^svc_wallet_/);
    expect(a.body.data.again).toBeNull();
    expect(codes(a)).toEqual(['WALLET_ALREADY_EXISTS']);
  });
});

describe('Node and node(id:)', () => {
  test.each(Object.entries(ACCEPTS))(
    'behavior: node(id:) answers a Wallet, an Intent and a Policy by their global ids (the service ids) (%s)',
    async (_name, accept) => {
      const acct = await srv.admin.createAccount({ plan: 'pro' });
      const wallet = (await gql(acct, 'mutation { createWallet(input: { userId: "node-w" }) { id userId } }')).body.data.createWallet;
      const policy = (await srv.rest('POST', '/v1/policies', { key: acct.key, body: { name: 'node-p', rules: { maxUsdPerIntent: '10' } } })).body;
      const intent = await srv.rest('POST', '/v1/intents', { key: acct.key, body: { walletId: wallet.id, action: 'lend', amount: '1' } });
      expect(intent.status).toBe(201);
      const a = await gql(
        acct,
        `query($w: ID!, $i: ID!, $p: ID!) {
        w: node(id: $w) { __typename id ... on Wallet { userId } }
        i: node(id: $i) { __typename id ... on Intent { walletId action } }
        p: node(id: $p) { __typename id ... on Policy { name version } }
      }`,
        { w: wallet.id, i: intent.body.id, p: policy.id },
        accept,
      );
      expect(a.body.errors).toBeUndefined();
      expect(a.body.data).toEqual({
        w: { __typename: 'Wallet', id: wallet.id, userId: 'node-w' },
        i: { __typename: 'Intent', id: intent.body.id, walletId: wallet.id, action: 'LEND' },
        p: { __typename: 'Policy', id: policy.id, name: 'node-p', version: 1 },
      });
    },
  );

  test("error: another account's object, or an id that names no type, is null with the typed field's error; siblings answer; only found nodes cost", async () => {
    const mine = await srv.admin.createAccount({ plan: 'pro' });
    const theirs = await srv.admin.createAccount({ plan: 'pro' });
    const their = (await gql(theirs, 'mutation { createWallet(input: { userId: "theirs" }) { id } }')).body.data.createWallet;
    const own = (await gql(mine, 'mutation { createWallet(input: { userId: "mine" }) { id } }')).body.data.createWallet;
    const before = (await srv.admin.usage(mine.accountId)).credits.used;
    const a = await gql(
      mine,
      `query($their: ID!, $own: ID!) {
        their: node(id: $their) { id }
        nothing: node(id: "svc_policy_00000000000000000000000000000000") { id }
        bogus: node(id: "not-an-id") { id }
        own: node(id: $own) { id }
      }`,
      { their: their.id, own: own.id },
    );
    expect(a.body.data).toEqual({ their: null, nothing: null, bogus: null, own: { id: own.id } });
    expect(Object.fromEntries(a.body.errors.map((e: Json) => [e.path[0], e.extensions.code]))).toEqual({
      their: 'WALLET_NOT_FOUND',
      nothing: 'POLICY_NOT_FOUND',
      bogus: 'NOT_FOUND',
    });
    expect((await srv.admin.usage(mine.accountId)).credits.used - before).toBe(1);
  });
});

describe('Relay connections both ways', () => {
  const PAGE = 'edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

  test.each(Object.entries(ACCEPTS))('behavior: policies page forward and backward over the same list, with a full PageInfo (%s)', async (_name, accept) => {
    const acct = await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 });
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await srv.rest('POST', '/v1/policies', { key: acct.key, body: { name: `p${i}`, rules: { maxUsdPerIntent: '10' } } });
      expect(r.status).toBe(201);
      made.push(r.body.id);
    }
    const page = async (args: string) => {
      const a = await gql(acct, `{ policies(${args}) { ${PAGE} } }`, undefined, accept);
      expect(a.body.errors).toBeUndefined();
      return a.body.data.policies;
    };
    const all = (await page('first: 100')).edges.map((e: Json) => e.node.id);
    expect([...all].sort()).toEqual([...made].sort());

    const p1 = await page('first: 3');
    expect(p1.edges.map((e: Json) => e.node.id)).toEqual(all.slice(0, 3));
    expect(p1.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: p1.edges[0].cursor, endCursor: p1.edges[2].cursor });
    const p2 = await page(`first: 3, after: "${p1.pageInfo.endCursor}"`);
    expect(p2.edges.map((e: Json) => e.node.id)).toEqual(all.slice(3, 6));
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const tail = await page('last: 3');
    expect(tail.edges.map((e: Json) => e.node.id)).toEqual(all.slice(4, 7));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await page(`last: 2, before: "${p2.pageInfo.startCursor}"`);
    expect(back.edges.map((e: Json) => e.node.id)).toEqual(all.slice(1, 3));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true, startCursor: back.edges[0].cursor, endCursor: back.edges[1].cursor });

    // The audit log recorded each creation: its connection pages backward too, over the same order.
    const events = async (args: string) =>
      (
        await gql(
          acct,
          `{ auditEvents(${args}, type: POLICY_CREATED) { edges { node { subject { policyId } } } pageInfo { hasPreviousPage hasNextPage } } }`,
          undefined,
          accept,
        )
      ).body.data.auditEvents;
    const log = (await events('first: 100')).edges.map((e: Json) => e.node.subject.policyId);
    expect([...log].sort()).toEqual([...made].sort());
    const oldest = await events('last: 2');
    expect(oldest.edges.map((e: Json) => e.node.subject.policyId)).toEqual(log.slice(5));
    expect(oldest.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false });
  });

  test("behavior: a wallet's intents page backward; mixing directions is INVALID_REQUEST and nulls only that field", async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 });
    const w = (await gql(acct, 'mutation { createWallet(input: { userId: "paged" }) { id } }')).body.data.createWallet;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await srv.rest('POST', '/v1/intents', { key: acct.key, body: { walletId: w.id, action: 'lend', amount: '1' } });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const newestFirst = (await gql(acct, `query($w: ID!) { intents(walletId: $w, first: 10) { ${PAGE} } }`, { w: w.id })).body.data.intents.edges.map(
      (e: Json) => e.node.id,
    );
    expect([...newestFirst].sort()).toEqual([...ids].sort());
    const last = await gql(acct, `query($w: ID!) { intents(walletId: $w, last: 1) { ${PAGE} } }`, { w: w.id });
    expect(last.body.data.intents.edges.map((e: Json) => e.node.id)).toEqual([newestFirst[2]]);
    expect(last.body.data.intents.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });

    const mixed = await gql(acct, `query($w: ID!) { intents(walletId: $w, first: 1, last: 1) { ${PAGE} } walletById(id: $w) { id } }`, { w: w.id });
    expect(mixed.body.data).toEqual({ intents: null, walletById: { id: w.id } });
    expect(mixed.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: { issues: [{ path: 'last' }] } });
  });
});
