import { createHarness, usdc, type Harness } from './engineHarness';

describe('engine: rebalance', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness();
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  test('behavior: a position and idle funds move into another chain’s market: withdraw, bridge, deposit of what the mint delivered', async () => {
    const w = await h.wallet();
    h.chain.supplyPosition('arbitrum-sepolia', w.address, 'aave-v3', 'USDC', usdc('70'));
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('20'));
    const intent = await h.submit(w.id, {
      action: 'rebalance',
      amount: '80',
      toChain: 'base-sepolia',
      toProtocol: 'aave-v3',
      sources: [
        { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '60' },
        { chain: 'arbitrum-sepolia', protocol: null, amount: '20' },
      ],
    });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('rebalance');
    expect(h.chain.signed.map((s) => `${s.kind}@${s.chain}`)).toEqual([
      'withdraw@arbitrum-sepolia',
      'approve@arbitrum-sepolia',
      'burn@arbitrum-sepolia',
      'mint@base-sepolia',
      'approve@base-sepolia',
      'supply@base-sepolia',
    ]);
    // 5 bps of 80 kept back by the mint
    expect(done.results).toMatchObject({ completedSteps: 3, finalAmount: '79.96', bridgeFees: '0.04', apy: 4.2 });
    expect(h.chain.position('arbitrum-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('10'));
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(0n);
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('79.96'));
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(0n);
  });

  test('error: a deposit that reverts after the withdraw fails the intent with DEPOSIT_FAILED and the funds idle on the chain, named in the error', async () => {
    const w = await h.wallet();
    h.chain.supplyPosition('base-sepolia', w.address, 'compound-v3', 'USDC', usdc('30'));
    h.chain.revertNext('supply');
    const intent = await h.submit(w.id, {
      action: 'rebalance',
      amount: '30',
      toChain: 'base-sepolia',
      toProtocol: 'aave-v3',
      sources: [{ chain: 'base-sepolia', protocol: 'compound-v3', amount: '30' }],
    });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'DEPOSIT_FAILED',
      message: "Step 2 (deposit) failed: supply transaction reverted. The rebalance's funds are idle in the wallet: 30 USDC on base-sepolia.",
      details: { step: 2, idle: { 'base-sepolia': '30' } },
    });
    expect(done.results).toMatchObject({ completedSteps: 1, failedStep: 2 });
    expect(h.chain.position('base-sepolia', w.address, 'compound-v3', 'USDC')).toBe(0n);
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(0n);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('30'));
  });

  test('error: a source its position no longer covers fails in planning with INSUFFICIENT_FUNDS, nothing signed', async () => {
    const w = await h.wallet();
    h.chain.supplyPosition('arbitrum-sepolia', w.address, 'aave-v3', 'USDC', usdc('5'));
    const intent = await h.submit(w.id, {
      action: 'rebalance',
      amount: '6',
      toChain: 'base-sepolia',
      toProtocol: 'aave-v3',
      sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '6' }],
    });
    const done = await h.settled(intent.id);
    expect(done.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { required: '6', available: '5', chain: 'arbitrum-sepolia', source: 'aave-v3' } });
    expect(h.chain.signed).toEqual([]);
  });
});
