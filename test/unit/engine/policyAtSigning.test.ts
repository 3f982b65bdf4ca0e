import type { Intent } from '../../../src/domain/intent';
import { emptyResults } from '../../../src/domain/intent';
import { createHarness, usdc, type Harness } from './engineHarness';

/**
 * Defence in depth: the executor checks each step against
 * the intent's recorded policy before signing it. Handed a forged plan (a
 * deposit on a chain, or with a protocol, the policy does not allow), it
 * signs nothing and the intent fails POLICY_VIOLATION.
 */
describe('engine: the recorded policy is checked again before signing', () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(async () => {
    await h.engine.stop();
  });

  async function forged(walletId: string, step: { chain: 'arbitrum-sepolia' | 'base-sepolia'; protocol: string }): Promise<Intent> {
    const now = h.clock.now().toISOString();
    const intent: Intent = {
      id: `intent_forged${Math.random().toString(16).slice(2, 10)}`,
      accountId: 'acct_test',
      walletId,
      status: 'executing',
      action: 'lend',
      amount: '5',
      requestedAmount: '5',
      asset: 'USDC',
      executionPlan: {
        strategy: 'no-bridge',
        reasoning: 'forged',
        steps: [{ index: 0, type: 'deposit', status: 'pending', chain: step.chain, protocol: step.protocol, asset: 'USDC', amount: '5' }],
      },
      results: emptyResults(),
      createdAt: now,
      updatedAt: now,
      version: 3,
      policy: { id: 'svc_policy_test', version: 2, rules: { chains: ['base-sepolia'], protocols: ['aave-v3'] } },
    };
    await h.store.intents.insert(intent);
    await h.engine.submit(intent);
    return intent;
  }

  test('error: a forged step on a chain the policy does not allow: no signature, failed POLICY_VIOLATION naming the rule', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    const done = await h.settled((await forged(w.id, { chain: 'arbitrum-sepolia', protocol: 'aave-v3' })).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'POLICY_VIOLATION',
      details: { policyId: 'svc_policy_test', version: 2, rule: 'chains', requested: 'arbitrum-sepolia' },
    });
    expect(h.chain.signed).toEqual([]);
  });

  test('error: a forged step with a protocol the policy does not allow: no signature', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const done = await h.settled((await forged(w.id, { chain: 'base-sepolia', protocol: 'compound-v3' })).id);
    expect(done.error).toMatchObject({ code: 'POLICY_VIOLATION', details: { rule: 'protocols', requested: 'compound-v3' } });
    expect(h.chain.signed).toEqual([]);
  });

  test('behavior: the same plan within the policy is signed and completes', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const done = await h.settled((await forged(w.id, { chain: 'base-sepolia', protocol: 'aave-v3' })).id);
    expect(done.status).toBe('completed');
    expect(h.chain.signed.map((s) => s.kind)).toEqual(['approve', 'supply']);
  });
});
