import { parseUnits } from 'viem';
import { pollFinal, startIntentsServer, type IntentsServer } from '../engine/intentsServer';
import { planOutflows } from '../../../src/app/policies/pricing';
import { intentTxKinds } from '../../../src/app/budgets/gasBudget';
import { reservedBalances } from '../../../src/engine/planner/reserved';
import type { Intent, Step } from '../../../src/domain/intent';
import { pendingIntent } from '../engine/intentFixture';

const usdc = (amount: string): bigint => parseUnits(amount, 6);

/** A rebalance plan: 60 withdrawn on arbitrum-sepolia, 20 idle there too, 80 bridged to base-sepolia (0.04 fee), 79.96 deposited. */
const STEPS: Step[] = [
  { index: 0, type: 'withdraw', status: 'pending', chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '60' },
  { index: 1, type: 'bridge', status: 'pending', chain: 'arbitrum-sepolia', from: 'arbitrum-sepolia', to: 'base-sepolia', amount: '80', fee: '0.04' },
  { index: 2, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '79.96' },
];

describe('rebalance: what admission counts', () => {
  test('behavior: the policy values a rebalance at what leaves the wallet once: withdrawn funds that are then bridged are not counted twice', () => {
    expect(planOutflows(STEPS, 'USDC')).toEqual(new Map([['arbitrum-sepolia', usdc('80')]]));
    // a move between two markets of one chain: the withdraw alone
    const sameChain: Step[] = [
      { ...STEPS[0]!, chain: 'base-sepolia' } as Step,
      { index: 1, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'compound-v3', asset: 'USDC', amount: '60' },
    ];
    expect(planOutflows(sameChain, 'USDC')).toEqual(new Map([['base-sepolia', usdc('60')]]));
  });

  test('behavior: the gas budget counts every transaction a rebalance sends: a withdraw per position, approve + burn + mint per chain bridged from, approve + supply', () => {
    expect(
      intentTxKinds({
        action: 'rebalance',
        toChain: 'base-sepolia',
        sources: [
          { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '60' },
          { chain: 'arbitrum-sepolia', protocol: null, amount: '20' },
          { chain: 'base-sepolia', protocol: 'compound-v3', amount: '5' },
        ],
      }),
    ).toEqual(['withdraw', 'withdraw', 'approve', 'burn', 'mint', 'approve', 'supply']);
    expect(intentTxKinds({ action: 'lend' })).toEqual(['approve', 'supply']);
  });

  test('behavior: an executing rebalance holds only its idle part until its withdraw is confirmed (the withdrawn part is not in the balance yet)', () => {
    const executing: Intent = pendingIntent({ status: 'executing', executionPlan: { strategy: 'rebalance', steps: STEPS, reasoning: '' } });
    expect(reservedBalances([executing], 'USDC')).toEqual({ 'arbitrum-sepolia': usdc('20') });
    const withdrawn: Intent = {
      ...executing,
      executionPlan: { strategy: 'rebalance', steps: [{ ...STEPS[0]!, status: 'completed' } as Step, STEPS[1]!, STEPS[2]!], reasoning: '' },
    };
    expect(reservedBalances([withdrawn], 'USDC')).toEqual({ 'arbitrum-sepolia': usdc('80') });
  });
});

describe('rebalance over REST and GraphQL (fake chain)', () => {
  let s: IntentsServer;
  beforeAll(async () => {
    s = await startIntentsServer();
  });
  afterAll(async () => {
    await s?.stop();
  });

  test('error: a bad rebalance body → 400 naming every field problem', async () => {
    const { key } = await s.account('pro');
    const w = await s.wallet(key);
    const res = await s.rest('POST', '/v1/intents', key, {
      walletId: w.id,
      action: 'rebalance',
      amount: '10',
      chain: 'base-sepolia',
      toProtocol: 'morpho',
      sources: [
        { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '6.0000001' },
        { chain: 'base-sepolia', amount: '4' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(
      ['chain', 'sources.0.amount', 'sources.1.protocol', 'toChain', 'toProtocol'].sort(),
    );
  });

  test('behavior: createIntent REBALANCE runs to completion; REST and GraphQL show toChain, toProtocol and sources', async () => {
    const { key } = await s.account('pro');
    const w = await s.wallet(key);
    s.chain.supplyPosition('arbitrum-sepolia', w.address, 'aave-v3', 'USDC', usdc('12'));
    const created = await s.gql(
      `mutation($w: ID!) { createIntent(input: { walletId: $w, action: REBALANCE, amount: "12", toChain: BASE_SEPOLIA, toProtocol: AAVE_V3,
        sources: [{ chain: ARBITRUM_SEPOLIA, protocol: AAVE_V3, amount: "12" }] }) { id action toChain toProtocol sources { chain protocol amount } } }`,
      { w: w.id },
      key,
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createIntent).toMatchObject({
      action: 'REBALANCE',
      toChain: 'BASE_SEPOLIA',
      toProtocol: 'AAVE_V3',
      sources: [{ chain: 'ARBITRUM_SEPOLIA', protocol: 'AAVE_V3', amount: '12' }],
    });
    const done = (await pollFinal(s, key, created.body.data.createIntent.id)).body;
    expect(done).toMatchObject({
      status: 'completed',
      action: 'rebalance',
      toChain: 'base-sepolia',
      toProtocol: 'aave-v3',
      sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '12' }],
      executionPlan: { strategy: 'rebalance' },
      results: { finalAmount: '11.994' },
    });
    expect(s.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('11.994'));
  });

  test('behavior: POST /v1/intents/preview plans a rebalance as the engine would: its steps priced, nothing sent', async () => {
    const { key } = await s.account('pro');
    const w = await s.wallet(key);
    s.chain.supplyPosition('base-sepolia', w.address, 'compound-v3', 'USDC', usdc('8'));
    const sent = s.chain.signed.length;
    const res = await s.rest('POST', '/v1/intents/preview', key, {
      walletId: w.id,
      action: 'rebalance',
      amount: '8',
      toChain: 'arbitrum-sepolia',
      toProtocol: 'aave-v3',
      sources: [{ chain: 'base-sepolia', protocol: 'compound-v3', amount: '8' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: 'rebalance', strategy: 'rebalance', amount: '7.996', apy: 3.1 });
    expect(res.body.steps.map((st: { type: string; chain: string }) => `${st.type}@${st.chain}`)).toEqual([
      'withdraw@base-sepolia',
      'bridge@base-sepolia',
      'deposit@arbitrum-sepolia',
    ]);
    expect(s.chain.signed.length).toBe(sent);
  });

  test('error: a policy that does not allow the target protocol, or whose per-intent cap is below the amount, refuses with POLICY_VIOLATION and stores nothing', async () => {
    const { key } = await s.account('pro');
    const w = await s.wallet(key);
    const body = {
      walletId: w.id,
      action: 'rebalance',
      amount: '5',
      toChain: 'base-sepolia',
      toProtocol: 'aave-v3',
      sources: [{ chain: 'base-sepolia', protocol: null, amount: '5' }],
    };
    const policy = await s.rest('POST', '/v1/policies', key, { name: 'compound only', rules: { protocols: ['compound-v3'] } });
    expect(policy.status).toBe(201);
    expect((await s.rest('PUT', `/v1/wallets/${w.id}/policy`, key, { policyId: policy.body.id })).status).toBe(200);
    const refused = await s.rest('POST', '/v1/intents', key, body);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'protocols', requested: 'aave-v3' } });

    expect((await s.rest('PUT', `/v1/policies/${policy.body.id}`, key, { name: 'capped', rules: { maxUsdPerIntent: '4.99' } })).status).toBe(200);
    const capped = await s.rest('POST', '/v1/intents', key, body);
    expect(capped.status).toBe(403);
    expect(capped.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'maxUsdPerIntent', limit: '4.99', requested: '5.00' } });
    expect((await s.rest('GET', `/v1/intents?walletId=${w.id}`, key)).body.intents).toEqual([]);
  });
});
