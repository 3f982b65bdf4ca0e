import { centsToUsd, refuseRequest, refuseStep, toCents, usdCents } from '../../../src/domain/policy';
import { createPolicySchema } from '../../../src/domain/schemas/policy';

describe('policy decisions (pure)', () => {
  test('behavior: exactly at maxUsdPerIntent is allowed, one cent above is refused with the rule, limit and request', () => {
    const rules = { maxUsdPerIntent: '5' };
    expect(refuseRequest(rules, { action: 'lend', chains: [], usdCents: 500n })).toBeNull();
    expect(refuseRequest(rules, { action: 'lend', chains: [], usdCents: 501n })).toEqual({ rule: 'maxUsdPerIntent', limit: '5', requested: '5.01' });
  });

  test('error: an action or a named chain outside the rules is refused, naming it', () => {
    const rules = { actions: ['lend' as const], chains: ['base-sepolia' as const] };
    expect(refuseRequest(rules, { action: 'bridge', chains: [], usdCents: 1n })).toMatchObject({ rule: 'actions', requested: 'bridge' });
    expect(refuseRequest(rules, { action: 'lend', chains: ['base-sepolia', 'arbitrum-sepolia'], usdCents: 1n })).toMatchObject({
      rule: 'chains',
      requested: 'arbitrum-sepolia',
    });
    expect(refuseRequest(rules, { action: 'lend', chains: ['base-sepolia'], usdCents: 1n })).toBeNull();
  });

  test('behavior: a step is checked on its action, every chain it touches, and its protocol', () => {
    const rules = { chains: ['base-sepolia' as const, 'ethereum-sepolia' as const], protocols: ['aave-v3' as const] };
    expect(refuseStep(rules, { action: 'lend', chains: ['base-sepolia'], protocol: 'aave-v3' })).toBeNull();
    expect(refuseStep(rules, { action: 'lend', chains: ['base-sepolia'], protocol: 'compound-v3' })).toMatchObject({ rule: 'protocols' });
    expect(refuseStep(rules, { action: 'bridge', chains: ['ethereum-sepolia', 'arbitrum-sepolia'] })).toMatchObject({
      rule: 'chains',
      requested: 'arbitrum-sepolia',
    });
  });

  test('behavior: USD cents are exact on strings and rounded up from prices', () => {
    expect(usdCents('12.5')).toBe(1250n);
    expect(usdCents('0.01')).toBe(1n);
    expect(centsToUsd(1250n)).toBe('12.50');
    expect(toCents(1.001)).toBe(101n); // a tenth of a cent over: the next cent
    expect(toCents(0.1 + 0.2)).toBe(30n); // float noise below a micro-dollar is not a cent
    expect(toCents(0.999999)).toBe(100n);
    expect(toCents(2)).toBe(200n);
  });
});

describe('policy body', () => {
  const issues = (body: unknown) => {
    const r = createPolicySchema.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };

  test('behavior: a valid body defaults scope to wallet and normalises amounts to strings', () => {
    const r = createPolicySchema.parse({ name: 'daily', rules: { maxUsdPerDay: 5, chains: ['base-sepolia'] } });
    expect(r).toEqual({ name: 'daily', scope: 'wallet', rules: { maxUsdPerDay: '5', chains: ['base-sepolia'] } });
  });

  test('error: every field problem is named: unknown fields, unknown chains and protocols, empty lists, bad amounts, no rule', () => {
    expect(issues({ name: 'x', rules: {} })).toEqual(['rules']);
    expect(issues({ name: 'x', rules: { chains: [] } })).toEqual(['rules.chains']);
    expect(issues({ name: 'x', rules: { chains: ['mars'] } })).toEqual(['rules.chains.0']);
    expect(issues({ name: 'x', rules: { protocols: ['uniswap'] } })).toEqual(['rules.protocols.0']);
    expect(issues({ name: 'x', rules: { maxUsdPerIntent: '1.234' } })).toEqual(['rules.maxUsdPerIntent']);
    expect(issues({ name: 'x', rules: { maxUsdPerIntent: 0 } })).toEqual(['rules.maxUsdPerIntent']);
    expect(issues({ name: 'x', rules: { maxUsdPerDay: -1 } })).toEqual(['rules.maxUsdPerDay']);
    expect(issues({ name: 'x', rules: { actions: ['lend'], extra: 1 } })).toEqual(['rules']);
    expect(issues({ name: '', scope: 'global', rules: { actions: ['lend', 'lend'] } }).sort()).toEqual(['name', 'rules.actions', 'scope']);
  });
});
