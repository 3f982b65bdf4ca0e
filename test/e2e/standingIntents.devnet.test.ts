import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { cctpFee } from '../../src/domain/cctpFee';
import { ADMIN_TOKEN, type Json, type TestServer } from '../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../helpers/ownSandbox';
import { startReceiver, type Receiver } from '../helpers/webhookReceiver';
import { marketOf, sampleMinutes, standingApi, type StandingApi } from '../helpers/standingScenario';

/**
 * Standing intents end to end: the real service over HTTP on devnets of its
 * own (the cases set rates), every sample taken on demand through
 * POST /admin/sandbox/sample and filed under a past minute the test picks,
 * so "the next sample" is one request and the decisions of it are made when
 * it answers. The rate history and the decider are shared by every standing
 * intent of the service: each case has its own wallet, starts its samples
 * more than an hour after the last case's (no previous sample leaks into
 * it), puts the rates back and pauses its standing intent when it ends.
 */

const BASE_AAVE = 'base-sepolia/aave-v3';
const ARB_AAVE = 'arbitrum-sepolia/aave-v3';
const FEE_BPS = 1;

let own: OwnSandboxServer;
let srv: TestServer;
let key: string;
let api: StandingApi;
let initialRates: { chain: string; protocol: string; apy: number }[];
const minutes = sampleMinutes(20);
/** Standing intents of the running case: paused when it ends, so later samples do not decide them. */
const opened: string[] = [];
const clients: Client[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  // No interval sample during the run (one is taken at start): every sample is the test's. A CCTP fast fee of 1 bps, so bridging costs.
  own = await startOwnSandboxServer({ YIELD_SAMPLE_INTERVAL_MS: '86400000', WEBHOOK_RETRY_BASE_MS: '50' }, { feeBps: FEE_BPS });
  srv = own.srv;
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
  api = standingApi(srv, key);
  initialRates = await api.usdcRates();
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all(receivers.map((r) => r.close()));
  await own?.stop();
});

beforeEach(() => minutes.scenario());

afterEach(async () => {
  for (const id of opened.splice(0)) await api.pause(id);
  for (const r of initialRates) await api.setRate(r.chain, r.protocol, r.apy);
});

/** The best USDC market at the start, and the APY of a market then. */
const best = () => [...initialRates].sort((a, b) => b.apy - a.apy)[0]!;
const initialApy = (market: string) => initialRates.find((r) => marketOf(r) === market)!.apy;

async function standing(body: Record<string, unknown>): Promise<Json> {
  const s = await api.createStanding(body);
  opened.push(s.id);
  return s;
}

/** The rebalance intent a decision submitted, once final: it must complete. */
async function completedMove(decision: Json): Promise<Json> {
  expect(decision).toMatchObject({ outcome: 'rebalanced', trigger: 'rate_sample', intentId: expect.stringMatching(/^intent_/) });
  const intent = await api.waitFinal(decision.intentId);
  expect({ status: intent.status, action: intent.action, error: intent.error ?? null }).toEqual({ status: 'completed', action: 'rebalance', error: null });
  return intent;
}

/** The case's rate-sample decisions in time order, as "minute outcome reason → target". */
const outcomes = (decisions: Json[]) =>
  decisions
    .filter((d) => d.trigger === 'rate_sample')
    .sort((a, b) => (a.sampleAt < b.sampleAt ? -1 : 1))
    .map((d) => `${d.sampleAt} ${d.outcome}${d.reason ? ` ${d.reason}` : ''}${d.outcome === 'rebalanced' ? ` → ${marketOf(d.numbers.target)}` : ''}`);

describe('standing intents on the devnets', () => {
  /** Shared by (a), (b) and (e): one wallet, its samples and the moves the live decider made. */
  const ab = { walletId: '', standingId: '', samples: [] as string[], amount: '' };

  test('behavior (a + b): idle USDC on two chains is consolidated into the best market at the next sample; a raised rate elsewhere moves it once, at the second sample after the raise; then nothing more moves', async () => {
    expect(marketOf(best())).toBe(BASE_AAVE);
    const w = await api.wallet('standing-ab');
    await api.mint('ethereum-sepolia', w.address, '25000');
    await api.mint('arbitrum-sepolia', w.address, '25000');
    const s = await standing({ walletId: w.id });
    Object.assign(ab, { walletId: w.id, standingId: s.id });

    // (a) the next sample: a move of both chains' idle funds into the best market, which completes
    const s0 = minutes.next();
    const sampled = await api.sample(s0);
    expect(sampled.at).toBe(s0);
    expect(sampled.markets.map(marketOf)).toEqual(expect.arrayContaining([BASE_AAVE, ARB_AAVE]));
    const first = await api.decisionAt(s.id, s0);
    expect(marketOf(first.numbers.target)).toBe(BASE_AAVE);
    expect(first.numbers.sources.map((x: Json) => `${marketOf(x)} ${x.amount}`).sort()).toEqual(['arbitrum-sepolia/idle 25000', 'ethereum-sepolia/idle 25000']);
    // every cost of the move is counted: two bridges at 1 bps of 25,000 USDC each, their gas and the deposit's (no position to withdraw)
    expect(first.numbers.costs).toMatchObject({ withdrawGasUsd: 0, bridgeFeeUsd: 5 });
    expect(first.numbers.costs.bridgeGasUsd).toBeGreaterThan(0);
    expect(first.numbers.costs.depositGasUsd).toBeGreaterThan(0);
    const moveA = await completedMove(first);
    expect(moveA).toMatchObject({ toChain: 'base-sepolia', toProtocol: 'aave-v3', requestedAmount: 50000, results: { finalAmount: '49995', bridgeFees: '5' } });
    const consolidated = await api.usdcHoldings(w.id);
    expect(Object.keys(consolidated)).toEqual([BASE_AAVE]);
    // all of it arrived but the bridge fees (interest may have added a little since)
    expect(consolidated[BASE_AAVE]).toBeGreaterThanOrEqual(49_995_000_000n);
    expect(consolidated[BASE_AAVE]).toBeLessThan(50_000_000_000n);
    // the standing intent names its last move
    const view = await srv.rest('GET', `/v1/standing-intents/${s.id}`, { key });
    expect(view.body).toMatchObject({ lastIntentId: first.intentId, status: 'active' });

    // (b) a sample before the raise: the funds are where they should be
    const s1 = minutes.next();
    await api.sample(s1);
    expect(await api.decisionAt(s.id, s1)).toMatchObject({ outcome: 'skipped', reason: 'already_best' });
    const raised = initialApy(BASE_AAVE) + 4;
    await api.setRate('arbitrum-sepolia', 'aave-v3', raised);
    // the first sample after the raise: not yet (the rate must hold for two samples)
    const s2 = minutes.next();
    await api.sample(s2);
    const unconfirmed = await api.decisionAt(s.id, s2);
    expect(unconfirmed).toMatchObject({ outcome: 'skipped', reason: 'unconfirmed_rate', intentId: null });
    // the second: the move, which completes
    const s3 = minutes.next();
    await api.sample(s3);
    const second = await api.decisionAt(s.id, s3);
    expect(marketOf(second.numbers.target)).toBe(ARB_AAVE);
    expect(second.numbers.sources.map(marketOf)).toEqual([BASE_AAVE]);
    await completedMove(second);
    const moved = await api.usdcHoldings(w.id);
    expect(Object.keys(moved).filter((m) => m !== BASE_AAVE)).toEqual([ARB_AAVE]);
    // the position moved, less the bridge's fee; the move withdraws the amount decided, so the interest
    // the position earned between the decision and the withdraw (a second or two of devnet time) stays behind
    const dust = moved[BASE_AAVE] ?? 0n;
    expect(dust).toBeLessThan(10_000n);
    const decided = BigInt(Math.round(Number(second.numbers.amount) * 1e6));
    expect(decided + dust).toBeGreaterThanOrEqual(consolidated[BASE_AAVE]!);
    // what arrived is the amount decided less the bridge's fee (and the interest earned on arbitrum since)
    const sinceDeposit = moved[ARB_AAVE]! - (decided - cctpFee(decided, FEE_BPS));
    expect(sinceDeposit).toBeGreaterThanOrEqual(0n);
    expect(sinceDeposit).toBeLessThan(10_000n);
    // a later sample: nothing more moves (the dust, if any, gains under a cent over the horizon: already where it belongs)
    const settled = 'already_best';
    const s4 = minutes.next();
    await api.sample(s4);
    const later = await api.decisionAt(s.id, s4);
    expect(later).toMatchObject({ outcome: 'skipped', reason: settled, intentId: null });
    expect(await api.usdcHoldings(w.id)).toEqual(moved);

    const decisions = await api.decisions(s.id);
    expect(outcomes(decisions)).toEqual([
      `${s0} rebalanced → ${BASE_AAVE}`,
      `${s1} skipped already_best`,
      `${s2} skipped unconfirmed_rate`,
      `${s3} rebalanced → ${ARB_AAVE}`,
      `${s4} skipped ${settled}`,
    ]);
    // funds arriving (each move completing) is decided too, and moved nothing more
    for (const d of decisions.filter((x) => x.trigger === 'funds_arrived')) expect(d.outcome).toBe('skipped');
    // exactly two rebalance intents on the wallet
    const intents = await srv.rest('GET', `/v1/intents?walletId=${w.id}`, { key });
    expect(
      intents.body.intents
        .filter((i: Json) => i.action === 'rebalance')
        .map((i: Json) => i.id)
        .sort(),
    ).toEqual([first.intentId, second.intentId].sort());
    ab.samples = [s1, s2, s3, s4];
    ab.amount = unconfirmed.numbers.amount;
  }, 240_000);

  test('behavior (e): the backtest over the history of (b) makes the moves the live decider made: same sample minute, same markets', async () => {
    expect(ab.samples).toHaveLength(4);
    const [from, , , last] = ab.samples as [string, string, string, string];
    const to = new Date(Date.parse(last) + 60_000).toISOString();
    const sim = await srv.rest('POST', '/v1/standing-intents/simulate', {
      key,
      body: { asset: 'USDC', amount: ab.amount, from, to, start: { chain: 'base-sepolia', protocol: 'aave-v3' } },
    });
    expect(sim.status).toBe(200);
    expect(sim.body.samples).toBe(4);
    const live = (await api.decisions(ab.standingId)).filter(
      (d) => d.trigger === 'rate_sample' && d.outcome === 'rebalanced' && d.sampleAt >= from && d.sampleAt < to,
    );
    const asMoves = (xs: { at: string; from: Json; to: Json }[]) => xs.map((m) => `${m.at} ${marketOf(m.from)} → ${marketOf(m.to)}`);
    expect(asMoves(sim.body.moves)).toEqual(asMoves(live.map((d) => ({ at: d.sampleAt, from: d.numbers.sources[0], to: d.numbers.target }))));
    expect(asMoves(sim.body.moves)).toEqual([`${ab.samples[2]} ${BASE_AAVE} → ${ARB_AAVE}`]);
  }, 60_000);

  test('behavior (c): a rise too small to pay for the move is a skipped decision, below_threshold, with its numbers; nothing moves', async () => {
    const w = await api.wallet('standing-c');
    await api.mint('base-sepolia', w.address, '5000');
    const s = await standing({ walletId: w.id });
    const s0 = minutes.next();
    await api.sample(s0);
    await completedMove(await api.decisionAt(s.id, s0));
    const lent = await api.usdcHoldings(w.id);
    expect(Object.keys(lent)).toEqual([BASE_AAVE]);

    // arbitrum's rate rises a little above base's: 5,000 × 0.05 % over 30 days is about 0.2 USD, below minGainUsd (1)
    const baseApy = initialApy(BASE_AAVE);
    await api.setRate('arbitrum-sepolia', 'aave-v3', baseApy + 0.05);
    const s1 = minutes.next();
    await api.sample(s1);
    const s2 = minutes.next();
    await api.sample(s2);
    const d = await api.decisionAt(s.id, s2);
    expect(d).toMatchObject({ outcome: 'skipped', reason: 'below_threshold', intentId: null, rule: null });
    const n = d.numbers;
    console.log(`below_threshold on the devnets: ${JSON.stringify(n)}`);
    expect(marketOf(n.target)).toBe(ARB_AAVE);
    expect(n.target.apy).toBeCloseTo(baseApy + 0.05, 2);
    expect(n.sources).toEqual([expect.objectContaining({ chain: 'base-sepolia', protocol: 'aave-v3' })]);
    expect(n.sources[0].apy).toBeCloseTo(baseApy, 2);
    expect(n.horizonDays).toBe(30);
    expect(n.gainUsd).toBeGreaterThan(0);
    expect(n.gainUsd).toBeLessThan(1);
    expect(n.thresholdUsd).toBe(1);
    expect(n.netGainUsd).toBeLessThanOrEqual(n.thresholdUsd);
    expect(n.costs.totalUsd).toBeCloseTo(n.costs.withdrawGasUsd + n.costs.bridgeFeeUsd + n.costs.bridgeGasUsd + n.costs.depositGasUsd, 5);
    expect(n.costs.withdrawGasUsd).toBeGreaterThan(0);
    expect(n.costs.bridgeGasUsd).toBeGreaterThan(0);
    expect(n.costs.bridgeFeeUsd).toBeCloseTo((5000 * FEE_BPS) / 10_000, 6);
    expect(n.netGainUsd).toBeCloseTo(n.gainUsd - n.costs.totalUsd, 5);
    expect(await api.usdcHoldings(w.id)).toEqual(lent);
  }, 180_000);

  test('behavior (d): a spending policy that forbids the better chain keeps the funds where the policy allows: a skipped decision, policy, naming the rule', async () => {
    const policy = await srv.rest('POST', '/v1/policies', { key, body: { name: 'ethereum only', rules: { chains: ['ethereum-sepolia'] } } });
    expect(policy.status).toBe(201);
    const w = await api.wallet('standing-d');
    const set = await srv.rest('PUT', `/v1/wallets/${w.id}/policy`, { key, body: { policyId: policy.body.id } });
    expect(set.status).toBe(200);
    await api.mint('ethereum-sepolia', w.address, '5000');
    const s = await standing({ walletId: w.id });

    // the best market (base) is forbidden: the best one the policy allows is taken instead
    const s0 = minutes.next();
    await api.sample(s0);
    const first = await api.decisionAt(s.id, s0);
    expect(first.numbers.target.chain).toBe('ethereum-sepolia');
    await completedMove(first);
    const lent = await api.usdcHoldings(w.id);
    expect(Object.keys(lent).every((m) => m.startsWith('ethereum-sepolia/') && !m.endsWith('/idle'))).toBe(true);

    // base pays far more still: the move there is refused by the policy, recorded with the rule, and nothing moves
    await api.setRate('base-sepolia', 'aave-v3', initialApy(BASE_AAVE) + 6);
    const s1 = minutes.next();
    await api.sample(s1);
    const s2 = minutes.next();
    await api.sample(s2);
    const refused = await api.decisionAt(s.id, s2);
    expect(refused).toMatchObject({ outcome: 'skipped', reason: 'policy', rule: 'chains', intentId: null });
    expect(marketOf(refused.numbers.target)).toBe(BASE_AAVE);
    expect(await api.usdcHoldings(w.id)).toEqual(lent);
    const intents = await srv.rest('GET', `/v1/intents?walletId=${w.id}`, { key });
    expect(intents.body.intents.map((i: Json) => i.id)).toEqual([first.intentId]);
  }, 180_000);

  test('behavior (f): a move is delivered as the standing_intent.rebalanced webhook to a real receiver and seen on the standingIntentDecisions subscription', async () => {
    const receiver = await startReceiver('standing');
    receivers.push(receiver);
    const hook = await srv.rest('POST', '/v1/webhooks', { key, body: { url: receiver.url, events: ['standing_intent.rebalanced'] } });
    expect(hook.status).toBe(201);
    const w = await api.wallet('standing-f');
    const s = await standing({ walletId: w.id });

    const client = createClient({
      url: srv.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const seen: Json[] = [];
    const errors: unknown[] = [];
    client.subscribe(
      {
        query: `subscription($id: ID!) { standingIntentDecisions(standingIntentId: $id) { id standingIntentId sampleAt outcome reason intentId trigger numbers { target { chain protocol } } } }`,
        variables: { id: s.id },
      },
      {
        next: (r) => (r.errors ? errors.push(...r.errors) : seen.push(r.data!.standingIntentDecisions)),
        error: (e) => errors.push(e),
        complete: () => undefined,
      },
    );
    const sawWithin = async (match: (d: Json) => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!seen.some(match) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return seen.some(match);
    };
    // Nothing held yet: samples decide `no_funds` until the subscription has seen one, so it is known to be listening.
    let listening = false;
    for (let i = 0; i < 10 && !listening; i++) {
      const at = minutes.next();
      await api.sample(at);
      listening = await sawWithin((d) => d.sampleAt === at, 1_000);
    }
    expect(listening).toBe(true);
    expect(seen.at(-1)).toMatchObject({ outcome: 'SKIPPED', reason: 'NO_FUNDS', intentId: null });

    await api.mint('base-sepolia', w.address, '5000');
    const s0 = minutes.next();
    await api.sample(s0);
    const decision = await api.decisionAt(s.id, s0);
    await completedMove(decision);

    await receiver.arrived(1);
    const delivered = receiver.received.map((r) => JSON.parse(r.body));
    expect(delivered[0]).toMatchObject({
      type: 'standing_intent.rebalanced',
      data: { id: decision.id, standingIntentId: s.id, sampleAt: s0, outcome: 'rebalanced', intentId: decision.intentId },
    });
    expect(receiver.received[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    // the endpoint did not ask for standing_intent.skipped: the no_funds decisions were not sent to it
    expect(delivered.map((d) => d.type)).toEqual(delivered.map(() => 'standing_intent.rebalanced'));

    expect(await sawWithin((d) => d.id === decision.id && d.intentId === decision.intentId, 10_000)).toBe(true);
    expect(errors).toEqual([]);
    expect(seen.find((d) => d.id === decision.id && d.intentId !== null)).toMatchObject({
      standingIntentId: s.id,
      sampleAt: s0,
      outcome: 'REBALANCED',
      trigger: 'RATE_SAMPLE',
      numbers: { target: { chain: 'BASE_SEPOLIA', protocol: 'AAVE_V3' } },
    });
  }, 180_000);

  test('error: POST /admin/sandbox/sample names every bad field, refuses a minute in the future, and needs the admin token', async () => {
    const bad = await srv.rest('POST', '/admin/sandbox/sample', { key: ADMIN_TOKEN, body: { at: 'soon', extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues.map((i: Json) => i.path).sort()).toEqual(['at', 'extra']);
    const future = await srv.rest('POST', '/admin/sandbox/sample', { key: ADMIN_TOKEN, body: { at: new Date(Date.now() + 3_600_000).toISOString() } });
    expect(future.status).toBe(400);
    expect(future.body.details.issues.map((i: Json) => i.path)).toEqual(['at']);
    const unkeyed = await srv.rest('POST', '/admin/sandbox/sample', { key, body: {} });
    expect(unkeyed.status).toBe(401);
  });
});
