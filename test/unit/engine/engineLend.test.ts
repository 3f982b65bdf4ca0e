import type { Intent } from '../../../src/domain/intent';
import { createHarness, usdc, type Harness } from './engineHarness';

/** The sub-transactions an intent sent, as "step:kind:status". */
const sent = (i: Intent): string[] =>
  (i.results?.transactions ?? []).map((t) => {
    const r = t as typeof t & { step: number; kind: string; status: string };
    return `${r.step}:${r.kind}:${r.status}`;
  });

describe('engine: lend', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness();
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  test('behavior: funds on the best-APY chain → no-bridge: approve + supply, completed with gas, final amount and APY', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('250'));
    const intent = await h.submit(w.id, { amount: '100' });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('no-bridge');
    expect(done.amount).toBe('100');
    expect(done.requestedAmount).toBe('100');
    expect(done.executionPlan?.steps).toEqual([
      expect.objectContaining({
        index: 0,
        type: 'deposit',
        status: 'completed',
        chain: 'base-sepolia',
        protocol: 'aave-v3',
        amount: '100',
        gasUsed: '226000',
        gasCostUsd: 0.0226,
      }),
    ]);
    const step = done.executionPlan!.steps[0]!;
    expect(step.txHash).toBe(h.chain.signed.find((s) => s.kind === 'supply')?.txHash);
    expect(step.startedAt).toBeDefined();
    expect(step.completedAt).toBeDefined();
    expect(sent(done)).toEqual(['0:approve:confirmed', '0:supply:confirmed']);
    expect(done.results).toMatchObject({ completedSteps: 1, totalGasUsed: '226000', totalGasCostUsd: 0.0226, finalAmount: '100', apy: 4.2 });
    expect(done.results?.transactions[0]).toMatchObject({ type: 'deposit', chain: 'base-sepolia', gasUsed: '46000', gasCostUsd: 0.0046 });
    expect(done.completedAt).toBeDefined();
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('100'));
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('150'));
    expect(await h.store.intents.get(intent.id)).toEqual(done);
  });

  test("behavior: client-named chain with funds there → direct-deposit into that chain's best protocol", async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('5'));
    const intent = await h.submit(w.id, { amount: '5', chain: 'arbitrum-sepolia' });
    const done = await h.settled(intent.id);
    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('direct-deposit');
    expect(done.results?.apy).toBe(3.1);
    expect(h.chain.position('arbitrum-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('5'));
  });

  test('behavior: funds on one other chain → single-bridge: approve + burn → attest → relayer mint, then deposit of what arrives', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('100'));
    const intent = await h.submit(w.id, { amount: '100' });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('single-bridge');
    // 5 bps route fee comes out of the bridged amount
    expect(done.amount).toBe('99.95');
    expect(done.requestedAmount).toBe('100');
    expect(sent(done)).toEqual(['0:approve:confirmed', '0:burn:confirmed', '0:mint:confirmed', '1:approve:confirmed', '1:supply:confirmed']);
    expect(h.chain.signed.find((s) => s.kind === 'mint')?.from).toBe('0x00000000000000000000000000000000000000aa');
    expect(done.executionPlan?.steps.map((s) => [s.type, s.status])).toEqual([
      ['bridge', 'completed'],
      ['deposit', 'completed'],
    ]);
    expect(done.executionPlan?.steps[0]?.txHash).toBe(h.chain.signed.find((s) => s.kind === 'burn')?.txHash);
    expect(done.results).toMatchObject({ completedSteps: 2, finalAmount: '99.95', totalGasUsed: String(46_000 + 120_000 + 90_000 + 46_000 + 180_000) });
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(0n);
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('99.95'));
  });

  test('behavior: the CCTP fee drops between planning and the mint → the deposit supplies what the mint delivered, the results say what the fee took', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('100'));
    // planned at 5 bps (maxFee 0.05); the attestation service charges 2 bps by the time the burn is attested
    h.chain.beforeBroadcast = async (s) => {
      if (s.kind === 'burn') h.chain.feeBps = 2;
    };
    const done = await h.settled((await h.submit(w.id, { amount: '100' })).id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.steps[0]).toMatchObject({ type: 'bridge', maxFee: '0.05', minFinalityThreshold: 1000, fee: '0.02' });
    expect(done.results).toMatchObject({ finalAmount: '99.98', bridgeFees: '0.02' });
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('99.98'));
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(0n);
  });

  test('behavior: the CCTP fee rises above the maxFee after planning → attested as standard (no fee), the deposit supplies all that arrived', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('100'));
    h.chain.beforeBroadcast = async (s) => {
      if (s.kind === 'burn') h.chain.feeBps = 50;
    };
    const done = await h.settled((await h.submit(w.id, { amount: '100' })).id);

    expect(done.status).toBe('completed');
    expect(done.results).toMatchObject({ finalAmount: '100', bridgeFees: '0' });
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('100'));
  });

  test('behavior: speed standard → the burn asks for finality 2000 at the standard tier (free here), all of it arrives', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('100'));
    const done = await h.settled((await h.submit(w.id, { amount: '100', speed: 'standard' })).id);

    expect(done.status).toBe('completed');
    expect(done.amount).toBe('100');
    expect(done.executionPlan?.steps[0]).toMatchObject({ type: 'bridge', fee: '0', maxFee: '0', minFinalityThreshold: 2000 });
    expect(done.executionPlan?.reasoning).toContain('Standard CCTP transfer: attested after hard finality, about 19 min');
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('100'));
  });

  test('behavior: funds spread over two other chains → multi-bridge, both bridged, one deposit', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('60'));
    h.chain.fund('ethereum-sepolia', w.address, 'USDC', usdc('50'));
    const intent = await h.submit(w.id, { amount: '100' });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('multi-bridge');
    expect(done.executionPlan?.steps.map((s) => s.type)).toEqual(['bridge', 'bridge', 'deposit']);
    expect(done.results?.completedSteps).toBe(3);
    expect(done.amount).toBe('99.95');
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('99.95'));
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(0n);
    expect(h.chain.balance('ethereum-sepolia', w.address, 'USDC')).toBe(usdc('10'));
  });

  test('error: not enough across all chains → failed in planning with INSUFFICIENT_FUNDS details, nothing sent', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('30'));
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('20'));
    const intent = await h.submit(w.id, { amount: '100' });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('failed');
    expect(done.executionPlan).toBeNull();
    expect(done.results).toBeUndefined();
    expect(done.error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      details: { required: '100', available: '50', perChain: { 'arbitrum-sepolia': '30', 'base-sepolia': '20' }, strategy: 'insufficient' },
    });
    expect(h.chain.signed).toEqual([]);
  });
});
