import { createStandingDecider } from '../../../src/app/standing/decider';
import { authorizeOperation } from '../../../src/app/accounts/admitRequest';
import { createDecisionBus } from '../../../src/app/standing/decisionBus';
import { watchDecisions } from '../../../src/app/standing/watchDecisions';
import type { DecisionInput, DecisionResult } from '../../../src/domain/standingIntent';
import { pollFinal, startIntentsServer, type IntentsServer } from '../engine/intentsServer';
import { toUnits } from '../../../src/domain/money';

/** Standing intents through both front doors of a real HTTP server (memory store, fake chain). */

let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer();
  s.deps.decisionBus = createDecisionBus();
});
afterAll(async () => {
  await s?.stop();
});

const issuesOf = (body: any) => (body.details.issues as { path: string }[]).map((i) => i.path).sort();

test('behavior: REST create (201, the defaults), get, list by cursor, pause, resume, decisions, delete; every answer is the standing intent view', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const created = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC', amount: '250' });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    id: expect.stringMatching(/^svc_standing_[0-9a-f]{32}$/),
    walletId: w.id,
    asset: 'USDC',
    amount: '250',
    horizonDays: 30,
    minGainUsd: 1,
    maxMovesPerDay: 2,
    status: 'active',
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    version: 1,
    lastDecisionAt: null,
    lastIntentId: null,
  });
  const id = created.body.id;
  const other = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'WETH', horizonDays: 7, minGainUsd: 0.5, maxMovesPerDay: 1 });
  expect(other.body).toMatchObject({ amount: null, horizonDays: 7, minGainUsd: 0.5, maxMovesPerDay: 1 });

  expect((await s.rest('GET', `/v1/standing-intents/${id}`, key)).body).toEqual(created.body);
  const all = (await s.rest('GET', '/v1/standing-intents', key)).body.standingIntents;
  expect(all.map((x: any) => x.id).sort()).toEqual([id, other.body.id].sort());
  // newest first (created in the same millisecond: by id)
  expect(all[0].createdAt >= all[1].createdAt).toBe(true);
  const page = await s.rest('GET', '/v1/standing-intents?first=1', key);
  expect(page.body.standingIntents).toEqual([all[0]]);
  expect(page.body.pageInfo.hasNextPage).toBe(true);
  const next = await s.rest('GET', `/v1/standing-intents?first=1&after=${page.body.pageInfo.endCursor}`, key);
  expect(next.body).toEqual({ standingIntents: [all[1]], pageInfo: { hasNextPage: false, endCursor: expect.any(String) } });

  const paused = await s.rest('POST', `/v1/standing-intents/${id}/pause`, key);
  expect(paused.body).toMatchObject({ status: 'paused', version: 2 });
  expect((await s.rest('POST', `/v1/standing-intents/${id}/pause`, key)).body).toMatchObject({ status: 'paused', version: 2 });
  expect((await s.rest('POST', `/v1/standing-intents/${id}/resume`, key)).body).toMatchObject({ status: 'active', version: 3 });

  const none = await s.rest('GET', `/v1/standing-intents/${id}/decisions`, key);
  expect(none.body).toEqual({ decisions: [], pageInfo: { hasNextPage: false, endCursor: null } });
  expect((await s.rest('GET', `/v1/standing-intents/${id}/decisions?limit=3`, key)).status).toBe(400);

  expect((await s.rest('DELETE', `/v1/standing-intents/${id}`, key)).status).toBe(204);
  expect((await s.rest('GET', `/v1/standing-intents/${id}`, key)).status).toBe(404);
  // the pair is free again
  expect((await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC' })).status).toBe(201);

  const audit = await s.rest('GET', '/v1/audit-events', key);
  const types = audit.body.events.map((e: any) => e.type);
  for (const t of ['standing_intent.created', 'standing_intent.paused', 'standing_intent.resumed', 'standing_intent.deleted']) expect(types).toContain(t);
  expect(audit.body.events.find((e: any) => e.type === 'standing_intent.deleted').subject).toEqual({ walletId: w.id, standingIntentId: id });
});

test('error: a bad body is 400 naming every bad field; a Tron wallet names walletId', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const bad = await s.rest('POST', '/v1/standing-intents', key, {
    asset: 'DOGE',
    amount: '-1',
    horizonDays: 0,
    minGainUsd: 'lots',
    maxMovesPerDay: 1.5,
    extra: true,
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe('INVALID_REQUEST');
  expect(issuesOf(bad.body)).toEqual(['amount', 'asset', 'extra', 'horizonDays', 'maxMovesPerDay', 'minGainUsd', 'walletId']);
  const precision = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC', amount: '1.1234567' });
  expect(issuesOf(precision.body)).toEqual(['amount']);
  const limits = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC', horizonDays: 366, maxMovesPerDay: 25, minGainUsd: -1 });
  expect(issuesOf(limits.body)).toEqual(['horizonDays', 'maxMovesPerDay', 'minGainUsd']);

  const tron = await s.wallet(key, 'tron');
  expect(issuesOf((await s.rest('POST', '/v1/standing-intents', key, { walletId: tron.id, asset: 'USDC' })).body)).toEqual(['walletId']);
  expect((await s.rest('POST', '/v1/standing-intents', key, { walletId: 'svc_wallet_nope', asset: 'USDC' })).body.error).toBe('WALLET_NOT_FOUND');

  const simulate = await s.rest('POST', '/v1/standing-intents/simulate', key, { asset: 'USDC', amount: '10', from: '2026-01-31', to: '2026-01-01' });
  expect(simulate.status).toBe(400);
  expect(issuesOf(simulate.body)).toEqual(['from']);
  const tooLong = await s.rest('POST', '/v1/standing-intents/simulate', key, { asset: 'USDC', amount: '10', from: '2025-01-01', to: '2026-01-01' });
  expect(tooLong.body.details.issues[0].message).toMatch(/at most 90 days/);
});

test('error: a second standing intent for the wallet and asset is 409 STANDING_INTENT_ALREADY_EXISTS naming the first, over REST and GraphQL; of ten racing creates exactly one is stored', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const first = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC' });
  expect(first.status).toBe(201);
  const details = { walletId: w.id, asset: 'USDC', standingIntentId: first.body.id };
  // before: 400 INVALID_REQUEST naming asset
  const twice = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC', horizonDays: 7 });
  expect({ status: twice.status, error: twice.body.error, details: twice.body.details }).toEqual({
    status: 409,
    error: 'STANDING_INTENT_ALREADY_EXISTS',
    details,
  });
  const gql = await s.gql('mutation($w: ID!) { createStandingIntent(walletId: $w, asset: USDC) { id } }', { w: w.id }, key);
  expect(gql.body.data.createStandingIntent).toBeNull();
  expect(gql.body.errors[0].extensions).toMatchObject({ code: 'STANDING_INTENT_ALREADY_EXISTS', details });

  // ten at once for another asset: the store's unique index settles it, every loser names the winner
  const racing = await Promise.all(Array.from({ length: 10 }, () => s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'WETH' })));
  const won = racing.filter((r) => r.status === 201);
  expect(won).toHaveLength(1);
  const lost = racing.filter((r) => r.status !== 201);
  expect(lost.map((r) => [r.status, r.body.error, r.body.details.standingIntentId])).toEqual(
    lost.map(() => [409, 'STANDING_INTENT_ALREADY_EXISTS', won[0]!.body.id]),
  );
  const listed = (await s.rest('GET', '/v1/standing-intents', key)).body.standingIntents;
  expect(listed.filter((x: any) => x.asset === 'WETH')).toHaveLength(1);
});

test('behavior: Idempotency-Key on POST /v1/standing-intents and createStandingIntent: the same key and body answer the first again (nothing created twice), another body is 409 IDEMPOTENCY_CONFLICT', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const body = { walletId: w.id, asset: 'USDC', amount: '100' };
  const headers = { 'Idempotency-Key': `standing-${w.id}` };
  const first = await s.rest('POST', '/v1/standing-intents', key, body, headers);
  expect(first.status).toBe(201);
  // before: the key was ignored, so the retry was a duplicate (400)
  const again = await s.rest('POST', '/v1/standing-intents', key, body, headers);
  expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({
    status: 201,
    body: first.body,
    replayed: 'true',
  });
  const other = await s.rest('POST', '/v1/standing-intents', key, { ...body, amount: '200' }, headers);
  expect({ status: other.status, error: other.body.error }).toEqual({ status: 409, error: 'IDEMPOTENCY_CONFLICT' });

  const mutation = 'mutation($w: ID!, $a: String) { createStandingIntent(walletId: $w, asset: WETH, amount: $a) { id amount } }';
  const gqlHeaders = { 'Idempotency-Key': `standing-gql-${w.id}` };
  const g1 = await s.gql(mutation, { w: w.id, a: '1' }, key, gqlHeaders);
  const g2 = await s.gql(mutation, { w: w.id, a: '1' }, key, gqlHeaders);
  expect(g1.body.errors).toBeUndefined();
  expect(g2.body).toEqual(g1.body);
  const g3 = await s.gql(mutation, { w: w.id, a: '2' }, key, gqlHeaders);
  expect(g3.body.errors[0].extensions.code).toBe('IDEMPOTENCY_CONFLICT');
  const listed = (await s.rest('GET', '/v1/standing-intents', key)).body.standingIntents;
  expect(listed.map((x: any) => x.id).sort()).toEqual([first.body.id, g1.body.data.createStandingIntent.id].sort());
});

test("error: another account's standing intent is 404 STANDING_INTENT_NOT_FOUND on every route; no key is 401; a read-only key cannot create", async () => {
  const owner = await s.account('pro');
  const w = await s.wallet(owner.key);
  const id = (await s.rest('POST', '/v1/standing-intents', owner.key, { walletId: w.id, asset: 'USDC' })).body.id;
  const stranger = await s.account('pro');
  for (const [method, path] of [
    ['GET', `/v1/standing-intents/${id}`],
    ['POST', `/v1/standing-intents/${id}/pause`],
    ['POST', `/v1/standing-intents/${id}/resume`],
    ['DELETE', `/v1/standing-intents/${id}`],
    ['GET', `/v1/standing-intents/${id}/decisions`],
  ] as const) {
    const answer = await s.rest(method, path, stranger.key);
    expect({ path, method, status: answer.status, error: answer.body.error }).toEqual({ path, method, status: 404, error: 'STANDING_INTENT_NOT_FOUND' });
  }
  expect((await s.rest('POST', '/v1/standing-intents', stranger.key, { walletId: w.id, asset: 'USDC' })).body.error).toBe('WALLET_NOT_FOUND');
  expect((await s.rest('GET', '/v1/standing-intents', stranger.key)).body.standingIntents).toEqual([]);
  const anonymous = await fetch(`${s.url}/v1/standing-intents`);
  expect(anonymous.status).toBe(401);
  // scopes: the changes need `write`, the reads and the backtest `read`
  const readOnly = { account: (await s.deps.store.accounts.get(owner.accountId))!, keyId: null, scopes: ['read' as const], via: 'apiKey' as const };
  for (const op of ['createStandingIntent', 'pauseStandingIntent', 'resumeStandingIntent', 'deleteStandingIntent'] as const) {
    await expect(authorizeOperation(s.deps, readOnly, op)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  }
  for (const op of ['listStandingIntents', 'getStandingIntent', 'listStandingDecisions', 'simulateStandingIntent'] as const) {
    await (await authorizeOperation(s.deps, readOnly, op)).refund();
  }
});

test('behavior: GraphQL create, read (query and node), list, decisions, pause, resume and delete, with errors named as over REST', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const fields = 'id walletId asset amount horizonDays minGainUsd maxMovesPerDay status version lastDecisionAt lastIntentId';
  const created = await s.gql(`mutation($w: ID!) { createStandingIntent(walletId: $w, asset: USDC, horizonDays: 14) { ${fields} } }`, { w: w.id }, key);
  expect(created.body.errors).toBeUndefined();
  const standing = created.body.data.createStandingIntent;
  expect(standing).toMatchObject({
    walletId: w.id,
    asset: 'USDC',
    amount: null,
    horizonDays: 14,
    minGainUsd: 1,
    maxMovesPerDay: 2,
    status: 'ACTIVE',
    version: 1,
  });
  const rest = await s.rest('GET', `/v1/standing-intents/${standing.id}`, key);
  expect(rest.body.horizonDays).toBe(14);

  const read = await s.gql(
    `query($id: ID!) { standingIntent(id: $id) { id status decisions(first: 5) { edges { node { id } } pageInfo { hasNextPage } } } node(id: $id) { ... on StandingIntent { asset } } standingIntents(first: 5) { edges { node { id } } } }`,
    { id: standing.id },
    key,
  );
  expect(read.body.errors).toBeUndefined();
  expect(read.body.data).toEqual({
    standingIntent: { id: standing.id, status: 'ACTIVE', decisions: { edges: [], pageInfo: { hasNextPage: false } } },
    node: { asset: 'USDC' },
    standingIntents: { edges: [{ node: { id: standing.id } }] },
  });

  const paused = await s.gql('mutation($id: ID!) { pauseStandingIntent(id: $id) { status version } }', { id: standing.id }, key);
  expect(paused.body.data.pauseStandingIntent).toEqual({ status: 'PAUSED', version: 2 });
  const resumed = await s.gql('mutation($id: ID!) { resumeStandingIntent(id: $id) { status } }', { id: standing.id }, key);
  expect(resumed.body.data.resumeStandingIntent).toEqual({ status: 'ACTIVE' });

  const bad = await s.gql(`mutation($w: ID!) { createStandingIntent(walletId: $w, asset: USDC, amount: "0", maxMovesPerDay: 99) { id } }`, { w: w.id }, key);
  expect(bad.body.data.createStandingIntent).toBeNull();
  expect(bad.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
  expect(bad.body.errors[0].extensions.details.issues.map((i: any) => i.path).sort()).toEqual(['amount', 'maxMovesPerDay']);

  const deleted = await s.gql('mutation($id: ID!) { deleteStandingIntent(id: $id) }', { id: standing.id }, key);
  expect(deleted.body.data.deleteStandingIntent).toBe(true);
  const gone = await s.gql('query($id: ID!) { standingIntent(id: $id) { id } }', { id: standing.id }, key);
  expect(gone.body.data.standingIntent).toBeNull();
  expect(gone.body.errors[0].extensions.code).toBe('STANDING_INTENT_NOT_FOUND');
});

test('behavior: the decisions subscription streams decisions recorded after it starts (this instance through the bus, another through the store), none before', async () => {
  const { key, accountId } = await s.account('pro');
  const w = await s.wallet(key);
  const id = (await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC' })).body.id;
  const stay: DecisionResult = {
    move: false,
    reason: 'below_threshold',
    numbers: {
      target: null,
      sources: [],
      amount: '0',
      costs: { withdrawGasUsd: 0, bridgeFeeUsd: 0, bridgeGasUsd: 0, depositGasUsd: 0, totalUsd: 0 },
      gainUsd: 0.2,
      netGainUsd: 0.1,
      thresholdUsd: 1,
      horizonDays: 30,
    },
  };
  const here = createStandingDecider({ ...s.deps, decide: () => stay, buildDecisionInput: () => ({}) as DecisionInput });
  // another instance: no bus shared with this one
  const elsewhere = createStandingDecider({ ...s.deps, decisionBus: undefined, decide: () => stay, buildDecisionInput: () => ({}) as DecisionInput });
  const at = (m: number) => ({ at: new Date(Date.UTC(2026, 6, 1, 0, m)).toISOString(), samples: [], costs: { gasUsdPerUnit: {}, routeFeeBps: {} } });
  await here.onSample(at(0)); // before the stream: never sent

  const account = (await s.deps.store.accounts.get(accountId))!;
  const principal = { account, keyId: null, scopes: ['read' as const], via: 'apiKey' as const };
  const stream = await watchDecisions(s.deps, principal, id, { pollMs: 20 });
  await here.onSample(at(1));
  const first = await stream.next();
  expect(first.value).toMatchObject({ standingIntentId: id, sampleAt: at(1).at, outcome: 'skipped', reason: 'below_threshold' });
  await elsewhere.onSample(at(2));
  const second = await stream.next();
  expect(second.value).toMatchObject({ sampleAt: at(2).at });
  await stream.return!();
  expect((await stream.next()).done).toBe(true);
  expect(s.deps.decisionBus!.size()).toBe(0);

  // over GraphQL (SSE): the first event is the next decision
  const res = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query: `subscription { standingIntentDecisions(standingIntentId: "${id}") { sampleAt outcome reason numbers { thresholdUsd } } }` }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  await new Promise((r) => setTimeout(r, 50));
  await here.onSample(at(3));
  let text = '';
  while (!/event: next\ndata: .*\n/.test(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value);
  }
  await reader.cancel();
  const data = JSON.parse(/event: next\ndata: (.*)\n/.exec(text)![1]!);
  expect(data).toEqual({
    data: { standingIntentDecisions: { sampleAt: at(3).at, outcome: 'SKIPPED', reason: 'BELOW_THRESHOLD', numbers: { thresholdUsd: 1 } } },
  });
});

test("behavior: a standing intent's earnings count the wallet's rebalances of its asset since it was created (gas and CCTP fees, USD); REST and GraphQL answer the same", async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const created = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC' });
  const id = created.body.id;
  const before = await s.rest('GET', `/v1/standing-intents/${id}/earnings`, key);
  expect(before.status).toBe(200);
  expect(before.body).toEqual({
    standingIntentId: id,
    walletId: w.id,
    asset: 'USDC',
    principal: null,
    earned: null,
    moves: 0,
    movesCostUsd: 0,
    earnedUsd: null,
    netUsd: null,
  });

  s.chain.supplyPosition('arbitrum-sepolia', w.address, 'aave-v3', 'USDC', toUnits('12', 'USDC'));
  const move = await s.rest('POST', '/v1/intents', key, {
    walletId: w.id,
    action: 'rebalance',
    asset: 'USDC',
    amount: '12',
    toChain: 'base-sepolia',
    toProtocol: 'aave-v3',
    sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '12' }],
  });
  expect(move.status).toBe(201);
  const done = (await pollFinal(s, key, move.body.id)).body;
  expect(done.status).toBe('completed');
  const fees = Number(done.results.bridgeFees);
  expect(fees).toBeGreaterThan(0);
  const after = await s.rest('GET', `/v1/standing-intents/${id}/earnings`, key);
  expect(after.body.moves).toBe(1);
  expect(after.body.movesCostUsd).toBeCloseTo(done.results.totalGasCostUsd + fees, 6);

  const gql = await s.gql(`query($id: ID!) { standingIntent(id: $id) { earnings { moves movesCostUsd earned netUsd } } }`, { id }, key);
  expect(gql.body.data.standingIntent.earnings).toEqual({
    moves: 1,
    movesCostUsd: after.body.movesCostUsd,
    earned: after.body.earned,
    netUsd: after.body.netUsd,
  });

  const { key: otherKey } = await s.account('pro');
  expect((await s.rest('GET', `/v1/standing-intents/${id}/earnings`, otherKey)).status).toBe(404);
});
