import type { ServiceError } from '../../../src/domain/errors/base';
import type { FieldIssue } from '../../../src/domain/errors/request';
import { createIntentSchema, parseCreateIntent } from '../../../src/domain/schemas/intent';
import { errorStatus } from '../../../src/http/errorStatus';

/** The ServiceError thrown by parsing `body`. */
function rejection(body: unknown): ServiceError {
  try {
    parseCreateIntent(body);
  } catch (e) {
    return e as ServiceError;
  }
  throw new Error('expected the body to be rejected');
}

const paths = (e: ServiceError): string[] => (e.details.issues as FieldIssue[]).map((i) => i.path);

describe('POST /intents body', () => {
  test('behavior: a minimal lend defaults asset to USDC and normalises a number amount to a decimal string', () => {
    expect(parseCreateIntent({ walletId: 'svc_wallet_1', action: 'lend', amount: 100.5 })).toEqual({
      walletId: 'svc_wallet_1',
      action: 'lend',
      amount: '100.5',
      asset: 'USDC',
    });
  });

  test('behavior: numeric strings, the minimum 0.01, small numbers and every action with its chain fields are accepted', () => {
    expect(parseCreateIntent({ walletId: 'w', action: 'lend', amount: '0.01', chain: 'base-sepolia' }).amount).toBe('0.01');
    expect(parseCreateIntent({ walletId: 'w', action: 'lend', amount: 0.010001 }).amount).toBe('0.010001');
    expect(parseCreateIntent({ walletId: 'w', action: 'withdraw', amount: 1, asset: 'DAI', chain: 'ethereum-sepolia' })).toMatchObject({
      asset: 'DAI',
      chain: 'ethereum-sepolia',
    });
    expect(parseCreateIntent({ walletId: 'w', action: 'bridge', amount: '5', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).toMatchObject({
      fromChain: 'arbitrum-sepolia',
      toChain: 'base-sepolia',
    });
  });

  test('error: an intent moving less than 0.01 of the asset is 400 naming the minimum (its gas would cost far more)', () => {
    for (const amount of ['0.000001', 1e-6, '0.0099', '0.009999999999999999999']) {
      const e = rejection({ walletId: 'w', action: 'lend', amount, asset: 'DAI' });
      expect(e.code).toBe('INVALID_REQUEST');
      expect((e.details as { issues: unknown[] }).issues).toContainEqual(
        expect.objectContaining({ path: 'amount', message: 'amount must be at least 0.01 (the minimum an intent moves)' }),
      );
    }
  });

  test('behavior: DAI takes 18 decimals, USDC at most 6', () => {
    expect(parseCreateIntent({ walletId: 'w', action: 'lend', amount: '1.000000000000000001', asset: 'DAI' }).amount).toBe('1.000000000000000001');
    const e = rejection({ walletId: 'w', action: 'lend', amount: '1.0000001' });
    expect(e.code).toBe('INVALID_REQUEST');
    expect(paths(e)).toEqual(['amount']);
  });

  test('error: every bad field is named in one answer', () => {
    const e = rejection({ action: 'bridge', amount: 0, asset: 'ETH', chain: 'base-sepolia', fromChain: 'base-sepolia', toChain: 'base-sepolia', memo: 'x' });
    expect(e.code).toBe('INVALID_REQUEST');
    expect(paths(e).sort()).toEqual(['amount', 'asset', 'chain', 'memo', 'toChain', 'walletId'].sort());
  });

  test.each([
    ['negative number', -1, 'amount must be positive'],
    ['zero string', '0.000', 'amount must be positive'],
    ['exponent string', '1e3', 'amount must be a plain decimal number such as "10.5"'],
    ['blank', ' ', 'amount must be a plain decimal number such as "10.5"'],
    ['missing', undefined, 'amount is required'],
    ['boolean', true, 'amount must be a number or a numeric string'],
  ])('error: amount %s is rejected', (_label, amount, message) => {
    const e = rejection({ walletId: 'w', action: 'lend', amount });
    expect(e.details.issues).toEqual([expect.objectContaining({ path: 'amount', message })]);
  });

  test('error: withdraw requires chain; bridge requires fromChain and toChain and rejects chain', () => {
    expect(paths(rejection({ walletId: 'w', action: 'withdraw', amount: 1 }))).toEqual(['chain']);
    expect(paths(rejection({ walletId: 'w', action: 'bridge', amount: 1 }))).toEqual(['fromChain', 'toChain']);
    expect(paths(rejection({ walletId: 'w', action: 'lend', amount: 1, fromChain: 'base-sepolia' }))).toEqual(['fromChain']);
  });

  test('behavior: speed fast or standard on bridge and lend; error: an unknown speed, or a speed on a withdraw, names speed', () => {
    expect(parseCreateIntent({ walletId: 'w', action: 'lend', amount: 1, speed: 'standard' }).speed).toBe('standard');
    expect(parseCreateIntent({ walletId: 'w', action: 'bridge', amount: 1, fromChain: 'base-sepolia', toChain: 'arbitrum-sepolia', speed: 'fast' }).speed).toBe(
      'fast',
    );
    expect(parseCreateIntent({ walletId: 'w', action: 'lend', amount: 1 }).speed).toBeUndefined();
    expect(paths(rejection({ walletId: 'w', action: 'lend', amount: 1, speed: 'instant' }))).toEqual(['speed']);
    expect(paths(rejection({ walletId: 'w', action: 'withdraw', amount: 1, chain: 'base-sepolia', speed: 'fast' }))).toEqual(['speed']);
  });

  test('error: bridge to the same chain names toChain; bridging DAI names asset', () => {
    expect(rejection({ walletId: 'w', action: 'bridge', amount: 1, fromChain: 'base-sepolia', toChain: 'base-sepolia' }).details.issues).toEqual([
      expect.objectContaining({ path: 'toChain', message: 'toChain must differ from fromChain' }),
    ]);
    const dai = rejection({ walletId: 'w', action: 'bridge', amount: 1, asset: 'DAI', fromChain: 'ethereum-sepolia', toChain: 'arbitrum-sepolia' });
    expect(dai.details.issues).toEqual([expect.objectContaining({ path: 'asset', message: 'only USDC can be bridged (CCTP)' })]);
  });

  test('error: rejects DAI on base-sepolia', () => {
    const e = rejection({ walletId: 'w', action: 'lend', amount: 1, asset: 'DAI', chain: 'base-sepolia' });
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details.issues).toEqual([expect.objectContaining({ path: 'asset', message: 'DAI is not supported on base-sepolia' })]);
  });

  test('error: an unknown chain name → INVALID_CHAIN naming the chain and field, with all field issues', () => {
    const e = rejection({ walletId: 'w', action: 'lend', amount: -1, chain: 'solana' });
    expect(e.code).toBe('INVALID_CHAIN');
    expect(errorStatus(e)).toBe(400);
    expect(e.details).toMatchObject({ chain: 'solana', field: 'chain', supported: expect.arrayContaining(['base-sepolia']) });
    expect(paths(e)).toEqual(['amount', 'chain']);
    expect(rejection({ walletId: 'w', action: 'bridge', amount: 1, fromChain: 'base-sepolia', toChain: 'polygon' }).details).toMatchObject({
      chain: 'polygon',
      field: 'toChain',
    });
  });

  test('behavior: upcoming main networks pass the schema (the plan check belongs to the app layer)', () => {
    expect(parseCreateIntent({ walletId: 'w', action: 'lend', amount: 1, chain: 'ethereum' }).chain).toBe('ethereum');
  });

  test('error: a body that is not an object is INVALID_REQUEST', () => {
    expect(rejection(null).code).toBe('INVALID_REQUEST');
    expect(rejection([1]).code).toBe('INVALID_REQUEST');
  });

  test('behavior: the schema alone reports the same issues for other front doors', () => {
    const r = createIntentSchema.safeParse({ walletId: 'w', action: 'swap', amount: 1 });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['action']);
  });
});
