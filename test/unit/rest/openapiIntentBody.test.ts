import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import { openApiDocument } from '../../../src/rest/openapi/document';
import { createIntentSchema } from '../../../src/domain/schemas/intent';
import { CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS } from '../../../src/domain/chains';
import { INTENT_ACTIONS } from '../../../src/domain/intent';

/**
 * The document's POST /intents body (a variant per action, with the
 * cross-field rules in JSON Schema) and the zod schema that validates the
 * route accept exactly the same bodies, checked on generated ones. Two rules
 * have no JSON Schema form and are the only differences allowed, both on a
 * JSON-number amount: more than 15 significant digits, and more decimals
 * than the asset has (JSON Schema's multipleOf is not exact on binary
 * floats). The document says both in words.
 */

const doc = openApiDocument() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'doc', components: doc.components });
const validate = ajv.compile({ $ref: 'doc#/components/schemas/CreateIntentRequest' });

const INEXPRESSIBLE = /significant digits|more than \d+ decimals/;

const absent = fc.constant(undefined);
const chain = fc.oneof(fc.constantFrom(...CHAIN_NAMES), fc.constantFrom('polygon', '', 'Base', null, 7), absent);
const decimalText = fc
  .tuple(
    fc.constantFrom('', '-', ' ', '+'),
    fc.stringMatching(/^\d{0,4}$/),
    fc.option(fc.stringMatching(/^\d{0,20}$/), { nil: undefined }),
    fc.constantFrom('', 'e3', ' ', 'x'),
  )
  .map(([sign, whole, frac, tail]) => `${sign}${whole}${frac === undefined ? '' : `.${frac}`}${tail}`);
const cleanDecimal = fc
  .tuple(fc.stringMatching(/^\d{1,3}$/), fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }))
  .map(([whole, frac]) => (frac === undefined ? whole : `${whole}.${frac}`));
const amount = fc.oneof(
  { weight: 4, arbitrary: cleanDecimal },
  { weight: 2, arbitrary: decimalText },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 10_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0.01, 0.009, 0.1234567, 1e21, 1e20, 1e-7, 12.5, '0.01', '0.009', '0.010', '00.5', '0', '0.00', true, null, [], {}) },
  { weight: 1, arbitrary: absent },
);
const validChain = fc.constantFrom(...CHAIN_NAMES);
/** Bodies shaped like real requests of each action (most valid), so both sides of every rule are reached. */
const shaped = fc
  .tuple(
    fc.constantFrom(...INTENT_ACTIONS),
    fc.oneof(
      cleanDecimal,
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 0, max: 1e9 }).map((n) => n / 1000),
    ),
    fc.option(fc.constantFrom(...TOKEN_ASSETS), { nil: undefined }),
    fc.option(validChain, { nil: undefined }),
    validChain,
    validChain,
  )
  .map(([action, amount, asset, chain, from, to]) => ({
    walletId: 'svc_wallet_1',
    action,
    amount,
    ...(action === 'bridge'
      ? { fromChain: from, toChain: to, ...(asset === 'USDC' || asset === undefined ? {} : { asset }) }
      : { asset, chain: action === 'withdraw' ? (chain ?? from) : chain }),
  }));
const random = fc.record(
  {
    walletId: fc.oneof(fc.constant('svc_wallet_1'), fc.constantFrom('', 5, null), absent),
    action: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...INTENT_ACTIONS) },
      { weight: 1, arbitrary: fc.constantFrom('stake', '', null) },
      { weight: 1, arbitrary: absent },
    ),
    amount,
    asset: fc.oneof(fc.constantFrom(...TOKEN_ASSETS), fc.constantFrom('ETH', 'usdc', null), absent),
    chain,
    fromChain: chain,
    toChain: chain,
    extra: fc.oneof({ weight: 9, arbitrary: absent }, { weight: 1, arbitrary: fc.constant('x') }),
  },
  { requiredKeys: [] },
);
/** Rebalance bodies: sources of whole cents (their sum usually right), some repeated or naming the target, some of assets that cannot cross chains. */
const rebalanceShaped = fc
  .tuple(
    fc.option(fc.constantFrom(...TOKEN_ASSETS), { nil: undefined }),
    validChain,
    fc.constantFrom(...LENDING_PROTOCOLS),
    fc.array(fc.record({ chain: validChain, protocol: fc.constantFrom(...LENDING_PROTOCOLS, null), cents: fc.integer({ min: 0, max: 100_000 }) }), {
      minLength: 0,
      maxLength: 3,
    }),
    fc.boolean(),
  )
  .map(([asset, toChain, toProtocol, sources, sumRight]) => {
    const cents = sources.reduce((sum, s) => sum + s.cents, 0) + (sumRight ? 0 : 1);
    const text = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
    return {
      walletId: 'svc_wallet_1',
      action: 'rebalance',
      amount: text(cents),
      ...(asset !== undefined && { asset }),
      toChain,
      toProtocol,
      sources: sources.map((s) => ({ chain: s.chain, protocol: s.protocol, amount: text(s.cents) })),
    };
  });
/** The rebalance rules JSON Schema cannot say (they compare fields or items with each other); the document says them in words. */
const REBALANCE_INEXPRESSIBLE = /sum of the sources|more than once|cannot be the target market|source must be on toChain|is not supported on/;
const body = fc.oneof(shaped, rebalanceShaped, random);

/** What reaches the route: the body after a JSON round trip (undefined fields gone). */
const wire = (b: Record<string, unknown>) => JSON.parse(JSON.stringify(b)) as Record<string, unknown>;

describe('POST /intents body in the OpenAPI document', () => {
  it('property: the document and the validating zod schema accept exactly the same bodies (but for the two rules JSON Schema cannot say)', () => {
    let accepted = 0;
    let gaps = 0;
    fc.assert(
      fc.property(body, (b) => {
        const input = wire(b);
        const zod = createIntentSchema.safeParse(input);
        const documented = validate(input);
        if (zod.success) accepted++;
        if (zod.success === documented) return;
        const inexpressible = !zod.success && documented && typeof input.amount === 'number' && zod.error.issues.every((i) => INEXPRESSIBLE.test(i.message));
        const rebalanceRule =
          !zod.success && documented && input.action === 'rebalance' && zod.error.issues.every((i) => REBALANCE_INEXPRESSIBLE.test(i.message));
        if (inexpressible || rebalanceRule) {
          gaps++;
          return;
        }
        throw new Error(
          `disagree on ${JSON.stringify(input)}: zod ${zod.success ? 'accepts' : `refuses (${zod.error.issues.map((i) => i.message).join('; ')})`}, document ${documented ? 'accepts' : `refuses (${ajv.errorsText(validate.errors)})`}`,
        );
      }),
      { numRuns: 4000, seed: 23 },
    );
    // the generators reach both sides of the rules
    expect(accepted).toBeGreaterThan(200);
    expect(gaps).toBeLessThan(1000);
  });

  it.each([
    [{ walletId: 'w', action: 'withdraw', amount: '1' }, false, 'withdraw needs chain'],
    [{ walletId: 'w', action: 'withdraw', amount: '1', chain: 'base-sepolia' }, true, 'withdraw with chain'],
    [{ walletId: 'w', action: 'bridge', amount: '1', fromChain: 'base-sepolia' }, false, 'bridge needs toChain'],
    [{ walletId: 'w', action: 'bridge', amount: '1', fromChain: 'base-sepolia', toChain: 'base-sepolia' }, false, 'bridge to the same chain'],
    [{ walletId: 'w', action: 'bridge', amount: '1', fromChain: 'base-sepolia', toChain: 'arbitrum-sepolia', asset: 'DAI' }, false, 'bridge moves USDC only'],
    [{ walletId: 'w', action: 'lend', amount: '1', chain: 'base-sepolia', asset: 'DAI' }, false, 'DAI is not on base-sepolia'],
    [{ walletId: 'w', action: 'lend', amount: '1.1234567' }, false, 'USDC has 6 decimals (asset absent)'],
    [{ walletId: 'w', action: 'lend', amount: '1.1234567', asset: 'DAI' }, true, 'DAI has 18'],
    [{ walletId: 'w', action: 'lend', amount: '0.009' }, false, 'below the minimum'],
    [{ walletId: 'w', action: 'lend', amount: 25, fromChain: 'base-sepolia' }, false, 'fromChain is for bridges'],
    [{ walletId: 'w', action: 'lend', amount: '5', optimize: 'netReturn' }, true, 'optimize on a lend'],
    [{ walletId: 'w', action: 'lend', amount: '5', optimize: 'netReturn', horizonDays: 365 }, true, 'with a horizon'],
    [{ walletId: 'w', action: 'lend', amount: '5', horizonDays: 30 }, false, 'horizonDays needs optimize'],
    [{ walletId: 'w', action: 'lend', amount: '5', optimize: 'netReturn', horizonDays: 0 }, false, 'horizon of at least a day'],
    [{ walletId: 'w', action: 'lend', amount: '5', optimize: 'netReturn', horizonDays: 1.5 }, false, 'whole days'],
    [{ walletId: 'w', action: 'lend', amount: '5', optimize: 'apy' }, false, 'unknown goal'],
    [{ walletId: 'w', action: 'withdraw', amount: '1', chain: 'base-sepolia', optimize: 'netReturn' }, false, 'optimize is for lends'],
    [
      {
        walletId: 'w',
        action: 'rebalance',
        amount: '1.5',
        toChain: 'ethereum-sepolia',
        toProtocol: 'aave-v3',
        sources: [{ chain: 'base-sepolia', protocol: null, amount: '1.5' }],
      },
      true,
      'rebalance of idle funds',
    ],
    [{ walletId: 'w', action: 'rebalance', amount: '1', toChain: 'ethereum-sepolia', toProtocol: 'aave-v3' }, false, 'rebalance needs sources'],
    [{ walletId: 'w', action: 'rebalance', amount: '1', toChain: 'ethereum-sepolia', toProtocol: 'aave-v3', sources: [] }, false, 'at least one source'],
    [
      {
        walletId: 'w',
        action: 'rebalance',
        amount: '1',
        toChain: 'ethereum-sepolia',
        toProtocol: 'aave-v3',
        sources: [{ chain: 'base-sepolia', protocol: 'aave-v3', amount: '1.0000001' }],
      },
      false,
      'a USDC source has 6 decimals',
    ],
    [
      {
        walletId: 'w',
        action: 'rebalance',
        amount: '1',
        chain: 'base-sepolia',
        toChain: 'ethereum-sepolia',
        toProtocol: 'aave-v3',
        sources: [{ chain: 'base-sepolia', protocol: null, amount: '1' }],
      },
      false,
      'chain is not a rebalance field',
    ],
    [{ walletId: 'w', action: 'lend', amount: '1', toProtocol: 'aave-v3' }, false, 'toProtocol is for rebalances'],
  ])('example: %j is %s (%s)', (input, valid, _why) => {
    expect(validate(input)).toBe(valid);
    expect(createIntentSchema.safeParse(input).success).toBe(valid);
  });
});
