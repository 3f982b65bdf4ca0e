import { ADMIN_TOKEN, type Json, type TestServer } from '../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../helpers/ownSandbox';
import { intentHttp, type IntentHttp } from './engine/intentsHttpHelpers';

/**
 * Spending policies end to end on the devnets, REST and GraphQL:
 * decided before anything is stored or charged, a rolling daily cap exact
 * under concurrency, policy-aware planning, version bumps, scope rules and
 * the audit trail. Its own sandbox: it sets lending rates.
 */
let own: OwnSandboxServer | undefined;
let srv: TestServer;
let key: string;
let accountId: string;
let api: IntentHttp;

beforeAll(async () => {
  own = await startOwnSandboxServer();
  srv = own.srv;
  const acct = await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 });
  key = acct.key;
  accountId = acct.accountId;
  api = intentHttp(srv, key);
}, 60_000);
afterAll(async () => {
  await own?.stop();
});

const rest = (method: string, path: string, body?: unknown, k = key) => srv.rest(method, path, { key: k, body });

async function createPolicy(body: Json): Promise<Json> {
  const r = await rest('POST', '/v1/policies', body);
  expect(r.status).toBe(201);
  return r.body;
}

async function walletUnder(policyId: string | null, prefix: string, usdcByChain: Record<string, string> = {}): Promise<{ id: string; address: string }> {
  const w = await api.fundedWallet(prefix, usdcByChain);
  if (policyId) expect((await rest('PUT', `/v1/wallets/${w.id}/policy`, { policyId })).status).toBe(200);
  return w;
}

const used = async () => (await srv.admin.usage(accountId)).credits.used;

describe('policy resource', () => {
  test('behavior: create, read, list, update (version + 1), and the wallet shows its policy', async () => {
    const p = await createPolicy({ name: 'small', rules: { maxUsdPerIntent: 10 } });
    expect(p).toMatchObject({
      id: expect.stringMatching(/^svc_policy_[0-9a-f]{32}$/),
      name: 'small',
      scope: 'wallet',
      rules: { maxUsdPerIntent: '10' },
      version: 1,
    });
    expect((await rest('GET', `/v1/policies/${p.id}`)).body).toEqual(p);
    expect((await rest('GET', '/v1/policies?first=50')).body.policies.map((x: Json) => x.id)).toContain(p.id);
    const up = await rest('PUT', `/v1/policies/${p.id}`, { name: 'smaller', rules: { maxUsdPerIntent: '5.50' } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ name: 'smaller', version: 2, rules: { maxUsdPerIntent: '5.50' } });
    const w = await walletUnder(p.id, 'shows');
    expect((await rest('GET', `/v1/wallets/${(await srv.service.deps.store.wallets.getById(w.id))!.userId}`)).body.policyId).toBe(p.id);
  });

  test('error: bad bodies name every field; unknown query parameters are refused', async () => {
    const r = await rest('POST', '/v1/policies', { name: '', scope: 'nope', rules: { chains: ['mars'], maxUsdPerDay: '1.234', colour: 'red' } });
    expect(r.status).toBe(400);
    const paths = r.body.details.issues.map((i: Json) => i.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['name', 'scope']));
    expect((await rest('GET', '/v1/policies?limit=5')).status).toBe(400);
  });

  test('error: delete in use → 409 POLICY_IN_USE; once unused → 204; another account → 404; a read-only key reads but cannot change (403)', async () => {
    const p = await createPolicy({ name: 'in-use', rules: { actions: ['lend'] } });
    const w = await walletUnder(p.id, 'inuse');
    const busy = await rest('DELETE', `/v1/policies/${p.id}`);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toBe('POLICY_IN_USE');
    const other = await srv.admin.createAccount({ plan: 'pro' });
    for (const [m, path] of [
      ['GET', `/v1/policies/${p.id}`],
      ['DELETE', `/v1/policies/${p.id}`],
    ] as const) {
      const r = await srv.rest(m, path, { key: other.key });
      expect({ m, status: r.status, error: r.body.error }).toEqual({ m, status: 404, error: 'POLICY_NOT_FOUND' });
    }
    const readOnly = await srv.admin.issueKey(accountId, { scopes: ['read'] });
    expect((await rest('GET', `/v1/policies/${p.id}`, undefined, readOnly.key)).status).toBe(200);
    expect((await rest('POST', '/v1/policies', { name: 'x', rules: { actions: ['lend'] } }, readOnly.key)).status).toBe(403);
    expect((await rest('DELETE', `/v1/wallets/${w.id}/policy`)).status).toBe(204);
    expect((await rest('DELETE', `/v1/policies/${p.id}`)).status).toBe(204);
    expect((await rest('GET', `/v1/policies/${p.id}`)).status).toBe(404);
  });
});

describe('decisions before anything is stored', () => {
  test('behavior: maxUsdPerIntent allows exactly the limit and refuses a cent above: 403 POLICY_VIOLATION with the rule, no intent, no credits', async () => {
    const p = await createPolicy({ name: 'cap', rules: { maxUsdPerIntent: '2' } });
    const w = await walletUnder(p.id, 'cap', { 'base-sepolia': '5' });
    const before = await used();
    const over = await api.post({ walletId: w.id, action: 'lend', amount: '2.01', chain: 'base-sepolia' });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      error: 'POLICY_VIOLATION',
      details: { policyId: p.id, version: 1, rule: 'maxUsdPerIntent', limit: '2', requested: '2.01' },
    });
    expect(await used()).toBe(before);
    expect((await rest('GET', `/v1/intents?walletId=${w.id}`)).body.intents).toEqual([]);
    const exact = await api.run({ walletId: w.id, action: 'lend', amount: '2', chain: 'base-sepolia' });
    expect(exact.status).toBe('completed');
    expect(exact.policy).toEqual({ id: p.id, version: 1 });
  });

  test('error: actions and named chains outside the rules are refused (REST and GraphQL alike)', async () => {
    const p = await createPolicy({ name: 'lend-base', rules: { actions: ['lend'], chains: ['base-sepolia', 'ethereum-sepolia'] } });
    const w = await walletUnder(p.id, 'rules');
    const bridge = await api.post({ walletId: w.id, action: 'bridge', amount: '1', fromChain: 'base-sepolia', toChain: 'ethereum-sepolia' });
    expect(bridge.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'actions', requested: 'bridge' } });
    const chain = await api.post({ walletId: w.id, action: 'lend', amount: '1', chain: 'arbitrum-sepolia' });
    expect(chain.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'chains', requested: 'arbitrum-sepolia' } });
    const g = await srv.gql(
      'mutation($i: CreateIntentInput!) { createIntent(input: $i) { id } }',
      { i: { walletId: w.id, action: 'LEND', amount: '1', chain: 'ARBITRUM_SEPOLIA' } },
      key,
    );
    expect(g.body.errors[0].extensions).toMatchObject({ code: 'POLICY_VIOLATION', details: { rule: 'chains', requested: 'arbitrum-sepolia' } });
  });

  test('behavior: 20 concurrent 1-USDC lends against maxUsdPerDay 5 → exactly 5 accepted; a planning failure gives its reservation back', async () => {
    const p = await createPolicy({ name: 'daily', rules: { maxUsdPerDay: 5 } });
    const w = await walletUnder(p.id, 'daily', { 'base-sepolia': '3' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post({ walletId: w.id, action: 'lend', amount: '1', chain: 'base-sepolia' })));
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted).toHaveLength(5);
    expect(answers.filter((a) => a.status === 403).every((a) => a.body.details.rule === 'maxUsdPerDay')).toBe(true);
    // Only 3 USDC are there: 3 complete, 2 fail in planning (nothing signed) and give 2 USD back.
    const finals = await Promise.all(accepted.map((a) => api.waitFinal(a.body.id)));
    expect(finals.filter((f) => f.status === 'completed')).toHaveLength(3);
    expect(finals.filter((f) => f.status === 'failed').map((f) => f.error.code)).toEqual(['INSUFFICIENT_FUNDS', 'INSUFFICIENT_FUNDS']);
    await api.mint('base-sepolia', w.address, '5');
    const again = await Promise.all(Array.from({ length: 3 }, () => api.post({ walletId: w.id, action: 'lend', amount: '1', chain: 'base-sepolia' })));
    expect(again.map((a) => a.status).sort()).toEqual([201, 201, 403]);
  }, 90_000);

  test('behavior: PUT bumps the version; intents accepted before keep the old rules, later ones follow the new', async () => {
    const p = await createPolicy({ name: 'bump', rules: { maxUsdPerIntent: '1' } });
    const w = await walletUnder(p.id, 'bump', { 'base-sepolia': '5' });
    const first = await api.submit({ walletId: w.id, action: 'lend', amount: '1', chain: 'base-sepolia' });
    await rest('PUT', `/v1/policies/${p.id}`, { name: 'bump', rules: { maxUsdPerIntent: '3' } });
    const second = await api.submit({ walletId: w.id, action: 'lend', amount: '3', chain: 'base-sepolia' });
    expect([first.policy, second.policy]).toEqual([
      { id: p.id, version: 1 },
      { id: p.id, version: 2 },
    ]);
    expect((await api.waitFinal(second.id)).status).toBe('completed');
  });

  test('behavior: the account-scope policy governs a wallet without its own; a second one is 409 POLICY_CONFLICT; a wallet policy overrides it', async () => {
    const other = await srv.admin.createAccount({ plan: 'pro' });
    const as = (k: string) => (m: string, path: string, body?: unknown) => srv.rest(m, path, { key: k, body });
    const call = as(other.key);
    const acct = await call('POST', '/v1/policies', { name: 'account', scope: 'account', rules: { maxUsdPerIntent: '1' } });
    expect(acct.status).toBe(201);
    expect((await call('POST', '/v1/policies', { name: 'again', scope: 'account', rules: { actions: ['lend'] } })).body.error).toBe('POLICY_CONFLICT');
    const w = (await call('POST', '/v1/wallets', { userId: 'acct-scope' })).body;
    const refused = await call('POST', '/v1/intents', { walletId: w.id, action: 'lend', amount: '2', chain: 'base-sepolia' });
    expect(refused.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { policyId: acct.body.id } });
    // the account policy governs a wallet: it cannot be deleted; a wallet policy of its own takes over
    expect((await call('DELETE', `/v1/policies/${acct.body.id}`)).body.error).toBe('POLICY_IN_USE');
    const own = (await call('POST', '/v1/policies', { name: 'own', rules: { maxUsdPerIntent: '100' } })).body;
    expect((await call('PUT', `/v1/wallets/${w.id}/policy`, { policyId: own.id })).body.policyId).toBe(own.id);
    const allowed = await call('POST', '/v1/intents', { walletId: w.id, action: 'lend', amount: '2', chain: 'base-sepolia' });
    expect(allowed.status).toBe(201);
    expect(allowed.body.policy).toEqual({ id: own.id, version: 1 });
  });
});

describe('policy-aware planning', () => {
  test('behavior: a chain-less lend goes to the best APY the policy allows while a higher APY waits on a disallowed chain; every step on allowed chains and protocols', async () => {
    for (const [chain, apy] of [
      ['arbitrum-sepolia', 9],
      ['base-sepolia', 6],
      ['ethereum-sepolia', 3],
    ] as const) {
      const r = await srv.rest('POST', '/admin/sandbox/rates', { key: ADMIN_TOKEN, body: { chain, protocol: 'aave-v3', asset: 'USDC', apy } });
      expect(r.status).toBe(200);
    }
    const p = await createPolicy({ name: 'two chains', rules: { chains: ['ethereum-sepolia', 'base-sepolia'], protocols: ['aave-v3'] } });
    const w = await walletUnder(p.id, 'aware', { 'ethereum-sepolia': '4', 'arbitrum-sepolia': '50' });
    const done = await api.run({ walletId: w.id, action: 'lend', amount: '3' });
    expect(done.status).toBe('completed');
    const deposit = done.executionPlan.steps.find((s: Json) => s.type === 'deposit');
    expect(deposit).toMatchObject({ chain: 'base-sepolia', protocol: 'aave-v3' });
    for (const step of done.executionPlan.steps) {
      const chains = step.type === 'bridge' ? [step.from, step.to] : [step.chain];
      expect(chains.every((c: string) => ['ethereum-sepolia', 'base-sepolia'].includes(c))).toBe(true);
      if (step.protocol) expect(step.protocol).toBe('aave-v3');
    }
    // the 50 USDC on arbitrum were never touched
    const report = await api.balances(w.id);
    expect(report.chains.find((c: Json) => c.chain === 'arbitrum-sepolia').tokens[0].balanceFormatted).toBe('50');
  }, 60_000);

  test('error: when only disallowed chains hold the funds, the intent fails in planning with POLICY_VIOLATION and nothing is signed', async () => {
    const p = await createPolicy({ name: 'base only', rules: { chains: ['base-sepolia'] } });
    const w = await walletUnder(p.id, 'nofit', { 'arbitrum-sepolia': '10' });
    const failed = await api.run({ walletId: w.id, action: 'lend', amount: '2' });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'POLICY_VIOLATION', details: { policyId: p.id, rule: 'chains' } });
    expect(failed.results?.transactions ?? []).toEqual([]);
  });
});

describe('GraphQL parity', () => {
  test('behavior: createPolicy, setWalletPolicy, Wallet.policy, policies, updatePolicy, Intent.policy and removeWalletPolicy/deletePolicy answer as REST does', async () => {
    const gql = async (q: string, v: Json = {}) => {
      const r = await srv.gql(q, v, key);
      expect(r.body.errors).toBeUndefined();
      return r.body.data;
    };
    const created = (
      await gql(
        'mutation { createPolicy(name: "gql", rules: { maxUsdPerIntent: "3", chains: [BASE_SEPOLIA] }) { id name scope version rules { maxUsdPerIntent chains } } }',
      )
    ).createPolicy;
    expect(created).toMatchObject({ name: 'gql', scope: 'WALLET', version: 1, rules: { maxUsdPerIntent: '3', chains: ['BASE_SEPOLIA'] } });
    expect((await rest('GET', `/v1/policies/${created.id}`)).body.rules).toEqual({ maxUsdPerIntent: '3', chains: ['base-sepolia'] });
    const w = await api.fundedWallet('gql-policy', { 'base-sepolia': '5' });
    const set = (
      await gql('mutation($w: ID!, $p: ID!) { setWalletPolicy(walletId: $w, policyId: $p) { id policyId policy { id version } } }', { w: w.id, p: created.id })
    ).setWalletPolicy;
    expect(set).toEqual({ id: w.id, policyId: created.id, policy: { id: created.id, version: 1 } });
    expect((await gql('{ policies(first: 100) { edges { node { id } } pageInfo { hasNextPage } } }')).policies.edges.map((e: Json) => e.node.id)).toContain(
      created.id,
    );
    expect(
      (await gql('mutation($id: ID!) { updatePolicy(id: $id, name: "gql2", rules: { maxUsdPerIntent: "4" }) { version } }', { id: created.id })).updatePolicy
        .version,
    ).toBe(2);
    const intent = (
      await gql('mutation($i: CreateIntentInput!) { createIntent(input: $i) { id policy { id version } } }', {
        i: { walletId: w.id, action: 'LEND', amount: '1', chain: 'BASE_SEPOLIA' },
      })
    ).createIntent;
    expect(intent.policy).toEqual({ id: created.id, version: 2 });
    await api.waitFinal(intent.id);
    expect((await gql('mutation($w: ID!) { removeWalletPolicy(walletId: $w) }', { w: w.id })).removeWalletPolicy).toBe(true);
    expect((await gql('mutation($id: ID!) { deletePolicy(id: $id) }', { id: created.id })).deletePolicy).toBe(true);
    const gone = await srv.gql('query($id: ID!) { policy(id: $id) { id } }', { id: created.id }, key);
    expect(gone.body.errors[0].extensions.code).toBe('POLICY_NOT_FOUND');
  });

  test("behavior: POST /v1/wallets accepts policyId (a wallet-scope policy of the account); another account's is 404", async () => {
    const p = await createPolicy({ name: 'at-creation', rules: { actions: ['lend'] } });
    const w = await rest('POST', '/v1/wallets', { userId: `with-policy-${Date.now()}`, policyId: p.id });
    expect(w.status).toBe(201);
    expect(w.body.policyId).toBe(p.id);
    const other = await srv.admin.createAccount({ plan: 'pro' });
    const refused = await srv.rest('POST', '/v1/wallets', { key: other.key, body: { userId: 'not-yours', policyId: p.id } });
    expect(refused.body.error).toBe('POLICY_NOT_FOUND');
  });
});

describe('audit trail', () => {
  test('behavior: policy changes, wallet assignments and denials are on record with their actor, and no secret', async () => {
    const p = await createPolicy({ name: 'audited', rules: { maxUsdPerIntent: '1' } });
    const w = await walletUnder(p.id, 'audited');
    await api.post({ walletId: w.id, action: 'lend', amount: '5', chain: 'base-sepolia' });
    const r = await rest('GET', `/v1/audit-events?limit=100`);
    expect(r.status).toBe(200);
    const types = r.body.events.filter((e: Json) => e.subject.policyId === p.id || e.subject.walletId === w.id).map((e: Json) => e.type);
    expect(types).toEqual(expect.arrayContaining(['policy.created', 'wallet.policy_set', 'intent.denied']));
    const denied = r.body.events.find((e: Json) => e.type === 'intent.denied' && e.subject.walletId === w.id);
    expect(denied.actor.type).toBe('apiKey');
    expect(denied.details).toMatchObject({ rule: 'maxUsdPerIntent', limit: '1', requested: '5.00' });
    expect(r.text).not.toMatch(/svc_sk_[0-9a-f]{64}/);
  });
});
