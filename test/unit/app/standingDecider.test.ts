import { createStandingDecider, moveIdempotencyKey, type SampleEvent, type StandingDeciderDeps, type SubmitMove } from '../../../src/app/standing/decider';
import { createDecisionBus, type PublishedDecision } from '../../../src/app/standing/decisionBus';
import type { DecisionSources } from '../../../src/app/standing/decisionInput';
import type { DecisionInput, DecisionNumbers, DecisionResult, StandingIntent } from '../../../src/domain/standingIntent';
import { policyViolation } from '../../../src/domain/errors/policy';
import { startIntentsServer, type IntentsServer } from '../engine/intentsServer';
import { usdc } from '../engine/engineHarness';

/**
 * The live decider over a memory store and the fake chain, with the decision
 * and the input builder injected (their real ones are built elsewhere) and
 * the submit of a move recorded (the rebalance action is another part's).
 */

let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer();
});
afterAll(async () => {
  await s?.stop();
});

const numbers = (moved: string): DecisionNumbers => ({
  target: { chain: 'base-sepolia', protocol: 'aave-v3', apy: 4.2 },
  sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: moved, apy: 3.1 }],
  amount: moved,
  costs: { withdrawGasUsd: 0.01, bridgeFeeUsd: 0.05, bridgeGasUsd: 0.02, depositGasUsd: 0.03, totalUsd: 0.11 },
  gainUsd: 2.5,
  netGainUsd: 2.39,
  thresholdUsd: 1,
  horizonDays: 30,
});
const MOVE: DecisionResult = { move: true, numbers: numbers('100') };
const STAY: DecisionResult = { move: false, reason: 'already_best', numbers: { ...numbers('0'), sources: [] } };

/** A harness: the decider with what it was asked and what it submitted. */
function harness(result: DecisionResult, submit?: (body: any, key?: string) => Promise<unknown>) {
  const built: DecisionSources[] = [];
  const submitted: { body: any; key?: string }[] = [];
  const bus = createDecisionBus();
  const heard: PublishedDecision[] = [];
  let n = 0;
  const fakeSubmit = (async (_deps, _actor, body, key) => {
    submitted.push({ body, key });
    if (submit) return submit(body, key);
    return { status: 201, replayed: false, body: { id: `intent_00000000000000000000000000000${(++n).toString().padStart(3, '0')}` } };
  }) as SubmitMove;
  const deps: StandingDeciderDeps = {
    ...s.deps,
    decisionBus: bus,
    decide: (input: DecisionInput) => {
      expect(input).toEqual({ built: built.length });
      return result;
    },
    buildDecisionInput: (sources) => {
      built.push(sources);
      return { built: built.length } as unknown as DecisionInput;
    },
    submitMove: fakeSubmit,
  };
  return { decider: createStandingDecider(deps), built, submitted, bus, heard };
}

/** An account with a wallet holding 100 USDC lent on arbitrum-sepolia, and a standing intent for it. */
async function standingFixture() {
  const { key, accountId } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.supplyPosition('arbitrum-sepolia', w.address, 'aave-v3', 'USDC', usdc('100'));
  s.chain.fund('base-sepolia', w.address, 'USDC', usdc('5'));
  const created = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC' });
  expect(created.status).toBe(201);
  return { key, accountId, wallet: w, standingId: created.body.id as string };
}

let minute = Date.UTC(2026, 5, 1, 12, 0);
/** A sample at a minute no other test uses. */
function sample(): SampleEvent {
  minute += 60_000;
  const at = new Date(minute).toISOString();
  return {
    at,
    samples: [
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at, apy: 4.2 },
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', at, apy: 3.1 },
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'WETH', at, apy: 1.5 },
    ],
    costs: { gasUsdPerUnit: { 'base-sepolia': 1e-9, 'arbitrum-sepolia': 1e-9 }, routeFeeBps: { 'arbitrum-sepolia': { 'base-sepolia': 1 } } },
  };
}

/** The decider hands the whole standing intent over; the sources' type names only what the input reads. */
const walletOf = (b: DecisionSources) => (b.standing as StandingIntent).walletId;

const decisionsOf = async (id: string) => s.deps.store.standingDecisions.list(id, { limit: 100 });

test('behavior: a moving decision submits one rebalance intent (the contract body, a key derived from the decision), records it on the decision and the standing intent, and publishes it', async () => {
  const f = await standingFixture();
  const h = harness(MOVE);
  h.bus.listen(f.standingId, (d) => h.heard.push(d));
  const at = sample();
  await h.decider.onSample(at);

  const mine = h.built.filter((b) => walletOf(b) === f.wallet.id);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({
    movesInLastDay: 0,
    intentInFlight: false,
    costs: at.costs,
    samples: at.samples.filter((x) => x.asset === 'USDC'),
  });
  expect(mine[0]!.holdings).toEqual(
    expect.arrayContaining([
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: usdc('100') },
      { chain: 'base-sepolia', protocol: null, amount: usdc('5') },
    ]),
  );
  const [decision, ...others] = await decisionsOf(f.standingId);
  expect(others).toEqual([]);
  const mySubmits = h.submitted.filter((x) => x.body.walletId === f.wallet.id);
  expect(mySubmits).toEqual([
    {
      body: {
        walletId: f.wallet.id,
        action: 'rebalance',
        asset: 'USDC',
        amount: '100',
        toChain: 'base-sepolia',
        toProtocol: 'aave-v3',
        sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '100' }],
      },
      key: moveIdempotencyKey(decision!.id),
    },
  ]);
  expect(decision).toMatchObject({ sampleAt: at.at, trigger: 'rate_sample', outcome: 'rebalanced', intentId: expect.stringMatching(/^intent_/) });
  expect(decision!.reason).toBeUndefined();
  const standing = await s.deps.store.standingIntents.get(f.standingId);
  expect(standing).toMatchObject({ lastDecisionAt: at.at, lastIntentId: decision!.intentId, version: 2 });
  expect(h.heard).toEqual([expect.objectContaining({ id: decision!.id, outcome: 'rebalanced', intentId: decision!.intentId, accountId: f.accountId })]);
});

test('behavior: a second onSample of the same minute (this instance or another deciding it too) records nothing more and submits nothing more', async () => {
  const f = await standingFixture();
  const first = harness(MOVE);
  const second = harness(MOVE);
  const at = sample();
  // two deciders (two instances) on the same sample at once, then one of them again
  await Promise.all([first.decider.onSample(at), second.decider.onSample(at)]);
  await first.decider.onSample(at);
  const decisions = await decisionsOf(f.standingId);
  expect(decisions).toHaveLength(1);
  const submits = [...first.submitted, ...second.submitted].filter((x) => x.body.walletId === f.wallet.id);
  expect(submits).toHaveLength(1);
  // the next minute decides again, and the move just made counts against the day's limit
  await first.decider.onSample(sample());
  expect(await decisionsOf(f.standingId)).toHaveLength(2);
  expect(first.built.filter((b) => walletOf(b) === f.wallet.id).at(-1)!.movesInLastDay).toBe(1);
});

test("behavior: each decision reads the wallet's holdings from the chains, not a cached read: funds another instance moved meanwhile are where the decision sees them", async () => {
  const f = await standingFixture();
  const h = harness(STAY);
  await h.decider.onSample(sample());
  // the balance report read the wallet too: a cached read now exists on this instance
  expect((await s.rest('GET', `/v1/balances/${f.wallet.id}`, f.key)).status).toBe(200);
  // another instance's rebalance moved everything into base-sepolia's market; nothing here was told
  s.chain.supplyPosition('arbitrum-sepolia', f.wallet.address, 'aave-v3', 'USDC', -usdc('100'));
  s.chain.fund('base-sepolia', f.wallet.address, 'USDC', -usdc('5'));
  s.chain.supplyPosition('base-sepolia', f.wallet.address, 'aave-v3', 'USDC', usdc('105'));
  await h.decider.onSample(sample());
  const mine = h.built.filter((b) => walletOf(b) === f.wallet.id);
  expect(mine.map((b) => b.holdings)).toEqual([
    expect.arrayContaining([
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: usdc('100') },
      { chain: 'base-sepolia', protocol: null, amount: usdc('5') },
    ]),
    [{ chain: 'base-sepolia', protocol: 'aave-v3', amount: usdc('105') }],
  ]);
});

test('behavior: a paused standing intent is not decided; resumed, it is decided at the next sample', async () => {
  const f = await standingFixture();
  const h = harness(STAY);
  expect((await s.rest('POST', `/v1/standing-intents/${f.standingId}/pause`, f.key)).body.status).toBe('paused');
  await h.decider.onSample(sample());
  await h.decider.onFundsArrived(f.wallet.id);
  expect(h.built.filter((b) => walletOf(b) === f.wallet.id)).toHaveLength(0);
  expect(await decisionsOf(f.standingId)).toEqual([]);
  await s.rest('POST', `/v1/standing-intents/${f.standingId}/resume`, f.key);
  await h.decider.onSample(sample());
  const decisions = await decisionsOf(f.standingId);
  expect(decisions.map((d) => [d.outcome, d.reason])).toEqual([['skipped', 'already_best']]);
  expect(h.submitted.filter((x) => x.body.walletId === f.wallet.id)).toEqual([]);
});

test('error: a move the spending policy refuses at submit (POLICY_VIOLATION) is a skipped decision, reason policy, naming the rule; a refused gas budget names gasBudget', async () => {
  const f = await standingFixture();
  const refusing = harness(MOVE, async () => {
    throw policyViolation({ id: 'svc_policy_0123456789abcdef0123456789abcdef', version: 1 }, { rule: 'maxUsdPerDay', limit: '50.00', requested: '100.00' });
  });
  const heard: PublishedDecision[] = [];
  refusing.bus.listen(f.standingId, (d) => heard.push(d));
  await refusing.decider.onSample(sample());
  const [refused] = await decisionsOf(f.standingId);
  expect(refused).toMatchObject({ outcome: 'skipped', reason: 'policy', rule: 'maxUsdPerDay' });
  expect(refused!.intentId).toBeUndefined();
  expect(heard.map((d) => [d.outcome, d.reason, d.rule])).toEqual([['skipped', 'policy', 'maxUsdPerDay']]);
  // a refused move does not count against the day's moves
  expect(await s.deps.store.standingDecisions.countRebalancedSince(f.standingId, '2000-01-01T00:00:00.000Z')).toBe(0);

  const { ServiceError } = await import('../../../src/domain/errors/base');
  const budget = harness(MOVE, async () => {
    throw new ServiceError('GAS_BUDGET_EXCEEDED', 'over budget');
  });
  await budget.decider.onSample(sample());
  expect((await decisionsOf(f.standingId))[0]).toMatchObject({ outcome: 'skipped', reason: 'policy', rule: 'gasBudget' });
});

test("behavior: the wallet's spending policy reaches the decision as `allowed`: a forbidden chain or protocol names its rule, an allowed market passes", async () => {
  const f = await standingFixture();
  const policy = await s.rest('POST', '/v1/policies', f.key, { name: 'base only', rules: { chains: ['base-sepolia'], protocols: ['aave-v3'] } });
  expect(policy.status).toBe(201);
  expect((await s.rest('PUT', `/v1/wallets/${f.wallet.id}/policy`, f.key, { policyId: policy.body.id })).status).toBe(200);
  const h = harness(STAY);
  await h.decider.onSample(sample());
  const { allowed } = h.built.find((b) => walletOf(b) === f.wallet.id)!;
  expect(allowed).toBeDefined();
  expect(allowed!({ chain: 'arbitrum-sepolia', protocol: 'aave-v3' }, usdc('1'))).toEqual({ ok: false, rule: 'chains' });
  expect(allowed!({ chain: 'base-sepolia', protocol: 'compound-v3' }, usdc('1'))).toEqual({ ok: false, rule: 'protocols' });
  expect(allowed!({ chain: 'base-sepolia', protocol: 'aave-v3' }, usdc('1'))).toEqual({ ok: true });
});

test('behavior: funds arriving decide the wallet at once on the last sample, keyed by the current minute (one decision per minute whatever triggers it)', async () => {
  const f = await standingFixture();
  const h = harness(STAY);
  await h.decider.onFundsArrived(f.wallet.id);
  expect(await decisionsOf(f.standingId)).toEqual([]); // no sample seen yet: nothing to decide on
  await h.decider.onSample(sample());
  await h.decider.onFundsArrived(f.wallet.id);
  await h.decider.onFundsArrived(f.wallet.id);
  const triggers = (await decisionsOf(f.standingId)).map((d) => d.trigger).sort();
  expect(triggers).toEqual(['funds_arrived', 'rate_sample']);
});

test('behavior: a settled move goes out as a standing_intent.rebalanced delivery to subscribed endpoints only; skipped only to endpoints that ask for it', async () => {
  const f = await standingFixture();
  const rebalancedOnly = { id: `svc_webhook_${'a'.repeat(24)}${f.standingId.slice(-8)}`, events: ['standing_intent.rebalanced'] as const };
  const both = { id: `svc_webhook_${'b'.repeat(24)}${f.standingId.slice(-8)}`, events: ['standing_intent.rebalanced', 'standing_intent.skipped'] as const };
  const intentsOnly = { id: `svc_webhook_${'c'.repeat(24)}${f.standingId.slice(-8)}`, events: ['intent.completed'] as const };
  for (const e of [rebalancedOnly, both, intentsOnly]) {
    await s.deps.store.webhooks.insertEndpoint({
      id: e.id,
      accountId: f.accountId,
      url: 'https://example.com/h',
      events: [...e.events],
      secretCiphertext: 'c2VhbGVk',
      secretKeyVersion: 'v1',
      createdAt: new Date().toISOString(),
    });
  }
  let kicks = 0;
  const decider = createStandingDecider({
    ...s.deps,
    webhooks: { secrets: {} as never, egress: {} as never, kick: () => kicks++ },
    decide: () => MOVE,
    buildDecisionInput: () => ({}) as DecisionInput,
    submitMove: (async () => ({ status: 201, replayed: false, body: { id: 'intent_0123456789abcdef0123456789abcdef' } })) as unknown as SubmitMove,
  });
  await decider.onSample(sample());
  const [decision] = await decisionsOf(f.standingId);
  const owed = async (endpointId: string) => s.deps.store.webhooks.listDeliveries(endpointId, { limit: 10 });
  for (const e of [rebalancedOnly, both]) {
    const [d, ...more] = await owed(e.id);
    expect(more).toEqual([]);
    expect(d).toMatchObject({ eventType: 'standing_intent.rebalanced', status: 'pending' });
    expect(JSON.parse(d!.body)).toMatchObject({
      type: 'standing_intent.rebalanced',
      data: { id: decision!.id, intentId: 'intent_0123456789abcdef0123456789abcdef' },
    });
  }
  expect(await owed(intentsOnly.id)).toEqual([]);
  expect(kicks).toBe(1);

  const staying = createStandingDecider({ ...s.deps, decide: () => STAY, buildDecisionInput: () => ({}) as DecisionInput });
  await staying.onSample(sample());
  expect((await owed(both.id)).map((d) => d.eventType)).toEqual(['standing_intent.skipped', 'standing_intent.rebalanced']);
  expect(await owed(rebalancedOnly.id)).toHaveLength(1);
});

describe('a move left unsubmitted by a stopped instance', () => {
  /** A decision to move, recorded as if an instance stopped right after its insert, `ageMs` ago. */
  async function dangling(f: Awaited<ReturnType<typeof standingFixture>>, ageMs: number) {
    const decidedAt = new Date(s.deps.clock.now().getTime() - ageMs);
    minute += 60_000;
    const d = {
      id: `svc_decision_${decidedAt.getTime().toString(16).padStart(12, '0')}0000${'ab'.repeat(8)}`,
      standingIntentId: f.standingId,
      accountId: f.accountId,
      walletId: f.wallet.id,
      sampleAt: new Date(minute).toISOString(),
      decidedAt: decidedAt.toISOString(),
      trigger: 'rate_sample' as const,
      outcome: 'rebalanced' as const,
      numbers: numbers('100'),
    };
    expect(await s.deps.store.standingDecisions.insertOnce(d)).toBe(true);
    return d;
  }

  test('behavior: a few minutes old, it is submitted at the next sample under its own key and settled with its intent, before the new decision', async () => {
    const f = await standingFixture();
    const left = await dangling(f, 3 * 60_000);
    const h = harness(STAY);
    h.bus.listen(f.standingId, (d) => h.heard.push(d));
    await h.decider.onSample(sample());
    const mine = h.submitted.filter((x) => x.body.walletId === f.wallet.id);
    expect(mine).toEqual([{ body: expect.objectContaining({ action: 'rebalance', amount: '100' }), key: moveIdempotencyKey(left.id) }]);
    const settled = await s.deps.store.standingDecisions.get(left.id);
    expect(settled).toMatchObject({ outcome: 'rebalanced', intentId: expect.stringMatching(/^intent_/) });
    expect(h.heard.map((d) => [d.id, d.outcome])).toEqual([
      [left.id, 'rebalanced'],
      [expect.any(String), 'skipped'],
    ]);
    // settled once: the next sample submits nothing more for it
    await h.decider.onSample(sample());
    expect(h.submitted.filter((x) => x.body.walletId === f.wallet.id)).toHaveLength(1);
  });

  test('behavior: too old to act on, it is settled interrupted and nothing is submitted; one just recorded (its instance may be submitting) is left alone', async () => {
    const f = await standingFixture();
    const old = await dangling(f, 20 * 60_000);
    const fresh = await dangling(f, 10_000);
    const h = harness(STAY);
    await h.decider.onSample(sample());
    expect(h.submitted.filter((x) => x.body.walletId === f.wallet.id)).toEqual([]);
    expect(await s.deps.store.standingDecisions.get(old.id)).toMatchObject({ outcome: 'skipped', reason: 'interrupted' });
    expect(await s.deps.store.standingDecisions.get(fresh.id)).toMatchObject({ outcome: 'rebalanced' });
    expect((await s.deps.store.standingDecisions.get(fresh.id))!.intentId).toBeUndefined();
  });
});
