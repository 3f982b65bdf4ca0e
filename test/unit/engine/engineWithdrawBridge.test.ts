import { createHarness, usdc, type Harness } from './engineHarness';

describe('engine: withdraw and bridge', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness();
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  test('behavior: withdraw → direct-withdraw of the exact amount from the position, balance credited', async () => {
    const w = await h.wallet();
    h.chain.supplyPosition('base-sepolia', w.address, 'aave-v3', 'USDC', usdc('80'));
    const intent = await h.submit(w.id, { action: 'withdraw', amount: '30', chain: 'base-sepolia' });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('direct-withdraw');
    expect(done.executionPlan?.steps).toEqual([
      expect.objectContaining({ type: 'withdraw', status: 'completed', chain: 'base-sepolia', protocol: 'aave-v3', amount: '30' }),
    ]);
    expect(h.chain.signed.map((s) => s.kind)).toEqual(['withdraw']);
    expect(done.results).toMatchObject({ completedSteps: 1, finalAmount: '30', apy: 4.2, totalGasUsed: '150000' });
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('50'));
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('30'));
  });

  test('error: withdraw beyond the position fails in planning with INSUFFICIENT_FUNDS', async () => {
    const w = await h.wallet();
    h.chain.supplyPosition('base-sepolia', w.address, 'aave-v3', 'USDC', usdc('10'));
    const done = await h.settled((await h.submit(w.id, { action: 'withdraw', amount: '30', chain: 'base-sepolia' })).id);
    expect(done.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { required: '30', available: '10', chain: 'base-sepolia' } });
  });

  test('behavior: bridge → single-bridge: burn on the source, relayer mint on the destination, fee taken on arrival', async () => {
    const w = await h.wallet();
    h.chain.fund('ethereum-sepolia', w.address, 'USDC', usdc('40'));
    const intent = await h.submit(w.id, { action: 'bridge', amount: '20', fromChain: 'ethereum-sepolia', toChain: 'arbitrum-sepolia' });
    const done = await h.settled(intent.id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('single-bridge');
    expect(done.amount).toBe('19.99');
    expect(done.results).toMatchObject({ completedSteps: 1, finalAmount: '19.99', apy: 0 });
    expect(h.chain.signed.map((s) => `${s.kind}@${s.chain}`)).toEqual(['approve@ethereum-sepolia', 'burn@ethereum-sepolia', 'mint@arbitrum-sepolia']);
    expect(h.chain.balance('ethereum-sepolia', w.address, 'USDC')).toBe(usdc('20'));
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(usdc('19.99'));
  });
});
