import { askedOf } from '../../../src/app/intents/createIntent';
import { createSystemClock } from '../../../src/domain/clock';
import { parseCreateIntent } from '../../../src/domain/schemas/intent';
import { planOn, planningRequestOf, readPlanning, type PlanningEffects, type PlanningRequest } from '../../../src/engine/planning';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { MARKETS, usdc } from './engineHarness';
import { FakeChain, testAddress } from './fakeChain';
import { pendingIntent, walletRecord } from './intentFixture';

/**
 * Planning plans a request, not an intent: the engine's request of the
 * intent it runs and a preview's of the body that intent was stored from
 * are the same, and nothing of the intent record but what was asked is read.
 */

const WALLET = 'svc_wallet_plan0001';
const rules = { chains: ['base-sepolia' as const] };

describe('the request planning reads', () => {
  test('behavior: a body is asked as POST /intents records it: amount in smallest units, bridges fast unless standard, a withdraw bridges nothing', () => {
    const requestOf = (body: Record<string, unknown>): PlanningRequest =>
      planningRequestOf({ walletId: WALLET, ...askedOf(parseCreateIntent({ walletId: WALLET, ...body })) });
    expect(requestOf({ action: 'lend', amount: '12.5' })).toEqual({ walletId: WALLET, action: 'lend', amount: 12_500_000n, asset: 'USDC', speed: 'fast' });
    expect(requestOf({ action: 'lend', amount: 3, chain: 'base-sepolia', optimize: 'netReturn', horizonDays: 7, speed: 'standard' })).toEqual({
      walletId: WALLET,
      action: 'lend',
      amount: 3_000_000n,
      asset: 'USDC',
      chain: 'base-sepolia',
      optimize: 'netReturn',
      horizonDays: 7,
      speed: 'standard',
    });
    expect(requestOf({ action: 'bridge', amount: '1', fromChain: 'base-sepolia', toChain: 'arbitrum-sepolia' })).toEqual({
      walletId: WALLET,
      action: 'bridge',
      amount: 1_000_000n,
      asset: 'USDC',
      fromChain: 'base-sepolia',
      toChain: 'arbitrum-sepolia',
      speed: 'fast',
    });
    expect(requestOf({ action: 'withdraw', amount: '2', chain: 'base-sepolia' })).toEqual({
      walletId: WALLET,
      action: 'withdraw',
      amount: 2_000_000n,
      asset: 'USDC',
      chain: 'base-sepolia',
    });
  });

  test('behavior: of an intent, what was asked and the policy it was decided under; its planned amount, reservations and record fields are not read', () => {
    const intent = {
      ...pendingIntent({
        walletId: WALLET,
        status: 'planning',
        version: 3,
        amount: '99.9',
        requestedAmount: '100',
        speed: 'standard',
        policy: { id: 'pol_1', version: 2, rules, reservation: { key: 'k', cents: 10_000, expiresAt: '2025-01-02T00:00:00.000Z' } },
      }),
      optimize: 'netReturn' as const,
    };
    expect(planningRequestOf(intent)).toEqual({
      walletId: WALLET,
      action: 'lend',
      amount: 100_000_000n,
      asset: 'USDC',
      speed: 'standard',
      optimize: 'netReturn',
      policy: { id: 'pol_1', version: 2, rules },
    });
  });
});

describe('planning a request', () => {
  async function setup() {
    const store = createMemoryStore();
    const chain = new FakeChain({ rates: MARKETS, feeBps: 5 });
    const address = testAddress(WALLET);
    await store.wallets.insert(walletRecord(WALLET, address, 'acct_0001'));
    chain.fund('base-sepolia', address, 'USDC', usdc('100'));
    const fx: PlanningEffects = { chains: chain, wallets: store.wallets, intents: store.intents, signal: new AbortController().signal };
    return { store, chain, fx };
  }
  const lend = (amount: string): PlanningRequest =>
    planningRequestOf({ walletId: WALLET, ...askedOf(parseCreateIntent({ walletId: WALLET, action: 'lend', amount })) });

  test("behavior: the engine's request of a stored intent plans what the preview's request of its body plans", async () => {
    const { fx } = await setup();
    const body = { walletId: WALLET, action: 'lend', amount: '40', chain: 'arbitrum-sepolia', speed: 'standard' };
    const asked = askedOf(parseCreateIntent(body));
    const stored = pendingIntent({ walletId: WALLET, status: 'planning', version: 1, ...asked, amount: asked.requestedAmount });
    const read = await readPlanning(planningRequestOf(stored), fx);
    if (!read.ok) throw read.error;
    const engine = planOn(planningRequestOf(stored), read.snapshot);
    const preview = planOn(planningRequestOf({ walletId: WALLET, ...asked }), read.snapshot);
    expect(engine).toMatchObject({ ok: true, plan: { strategy: 'single-bridge' } });
    expect(preview).toEqual(engine);
  });

  test("behavior: the funds a wallet's executing intent has committed are held back", async () => {
    const { store, fx } = await setup();
    const free = await readPlanning(lend('50'), fx);
    if (!free.ok) throw free.error;
    expect(planOn(lend('50'), free.snapshot)).toMatchObject({ ok: true });

    const holding = pendingIntent({
      id: 'intent_hold0001',
      walletId: WALLET,
      status: 'executing',
      version: 2,
      amount: '60',
      requestedAmount: '60',
      executionPlan: {
        strategy: 'no-bridge',
        reasoning: 'test',
        steps: [{ index: 0, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '60' }],
      },
    });
    await store.intents.insert(holding);
    const held = await readPlanning(lend('50'), fx);
    if (!held.ok) throw held.error;
    expect(held.snapshot.reserved).toEqual({ 'base-sepolia': usdc('60') });
    expect(planOn(lend('50'), held.snapshot)).toMatchObject({ ok: false, error: { code: 'INSUFFICIENT_FUNDS' } });
  });

  /**
   * A wallet with 100 USDC on base-sepolia, 60 of them committed by an executing lend of another instance, which
   * finishes (its supply mined, the intent recorded completed) at the first holdings read: just `before` the node
   * answers, or just `after` (the answer still shows the 60 when the planner gets it).
   */
  async function lendFinishingAtHoldingsRead(when: 'before' | 'after') {
    const { store, chain, fx } = await setup();
    const address = testAddress(WALLET);
    const lending = pendingIntent({
      id: 'intent_lend0001',
      walletId: WALLET,
      status: 'executing',
      version: 2,
      amount: '60',
      requestedAmount: '60',
      executionPlan: {
        strategy: 'no-bridge',
        reasoning: 'test',
        steps: [{ index: 0, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '60' }],
      },
    });
    await store.intents.insert(lending);
    const finish = async (): Promise<void> => {
      chain.fund('base-sepolia', address, 'USDC', -usdc('60'));
      chain.supplyPosition('base-sepolia', address, 'aave-v3', 'USDC', usdc('60'));
      await store.intents.update({ ...lending, status: 'completed', version: 3 }, 2);
    };
    const read = chain.holdings.bind(chain);
    let reads = 0;
    chain.holdings = async (...args) => {
      if (++reads > 1) return read(...args);
      if (when === 'before') await finish();
      const answer = await read(...args);
      if (when === 'after') await finish();
      return answer;
    };
    return fx;
  }

  test("error: another instance's intent finishes while the holdings are read (they still show its funds) → those funds are not planned again", async () => {
    const fx = await lendFinishingAtHoldingsRead('after');
    const read = await readPlanning(lend('50'), fx);
    if (!read.ok) throw read.error;
    expect(planOn(lend('50'), read.snapshot)).toMatchObject({ ok: false, error: { code: 'INSUFFICIENT_FUNDS' } });
  });

  test("behavior: another instance's intent that finished just before the holdings were read holds nothing: the 40 left are planned", async () => {
    const fx = await lendFinishingAtHoldingsRead('before');
    const read = await readPlanning(lend('40'), fx);
    if (!read.ok) throw read.error;
    expect(read.snapshot.reserved).toEqual({});
    expect(planOn(lend('40'), read.snapshot)).toMatchObject({ ok: true, amount: usdc('40') });
  });

  test('error: without a retry policy the chains are read once, a transient error answered; with one it is tried again', async () => {
    const { chain, fx } = await setup();
    chain.failNext('holdings', 'NETWORK_ERROR');
    expect(await readPlanning(lend('10'), fx)).toMatchObject({ ok: false, error: { code: 'NETWORK_ERROR' } });

    chain.failNext('holdings', 'NETWORK_ERROR');
    const retried = await readPlanning(lend('10'), {
      ...fx,
      retry: { policy: { attempts: 2, baseMs: 0, maxMs: 0, inFlightMaxMs: 0 }, clock: createSystemClock() },
    });
    expect(retried).toMatchObject({ ok: true });
  });
});
