import { z } from './zod';
import { ASSET_DECIMALS, CHAINS, CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS, type TokenAsset } from '../../domain/chains';
import { MAX_REBALANCE_SOURCES } from '../../domain/intent';
import { MIN_INTENT_AMOUNT, createIntentSchema, intentAmountSchema } from '../../domain/schemas/intent';

/**
 * The body of POST /intents for the document: one variant per action, built
 * from the fields of `createIntentSchema` (the schema that validates), with
 * the rules its cross-field refinement enforces written as JSON Schema:
 * which chain fields each action takes and requires, bridge moving USDC
 * only, fromChain ≠ toChain, the asset existing on the chain named, and the
 * amount's format, minimum and decimals per asset. The unit test
 * test/unit/rest/openapiIntentBody.test.ts checks on generated bodies that
 * this document and the zod schema accept exactly the same ones.
 */

const fields = createIntentSchema.shape;

/** A field made required, keeping its description. */
function required<T extends z.ZodType>(field: z.ZodOptional<T>): T {
  return field.unwrap().meta(field.meta() ?? {}) as T;
}

/** One literal action, with the enum's description. */
const action = <A extends (typeof fields.action.options)[number]>(a: A) => z.literal(a).meta(fields.action.meta() ?? {});

if (MIN_INTENT_AMOUNT !== '0.01') throw new Error('openapi: the amount pattern below is written for a minimum of 0.01');
/**
 * A plain decimal (DECIMAL of the schema) of at least 0.01 with at most
 * `decimals` decimals (`undefined`: any number of them).
 */
export function amountPattern(decimals?: number): string {
  const frac = (n: number) => (decimals === undefined ? '\\d*' : n <= 0 ? '' : `\\d{0,${n}}`);
  const anyFrac = decimals === undefined ? '\\d+' : `\\d{1,${decimals}}`;
  const lead = decimals === undefined ? Infinity : decimals;
  // a whole part with a non-zero digit; or zero, a point and a fraction ≥ .01
  return `^(?:\\d*[1-9]\\d*(?:\\.${anyFrac})?|0+\\.(?:[1-9]${frac(lead - 1)}|0[1-9]${frac(lead - 2)}))$`;
}

/** The amount itself: a decimal string or a JSON number, ≥ 0.01 (the decimals depend on the asset: see decimalsRules). */
const amount = z
  .union([
    z
      .string()
      .regex(new RegExp(amountPattern()))
      .meta({ examples: ['10.5'] }),
    // numbers from 1e21 on print with an exponent, which the schema refuses
    z
      .number()
      .min(Number(MIN_INTENT_AMOUNT))
      .lt(1e21)
      .meta({ examples: [25] }),
  ])
  .meta(intentAmountSchema.meta() ?? {});

/**
 * A `then` constraining some properties. `additionalProperties: true` changes
 * nothing in JSON Schema; Redocly's example checker (@redocly/ajv) otherwise
 * closes the subschema and reports every other property as unevaluated.
 */
const then = (properties: Record<string, object>) => ({ properties, additionalProperties: true });

/** Assets grouped by decimals; the default asset's group applies when `asset` is absent. */
function decimalsRules(defaultAsset: TokenAsset | undefined, assets: readonly TokenAsset[]): object[] {
  const byDecimals = new Map<number, TokenAsset[]>();
  for (const a of assets) byDecimals.set(ASSET_DECIMALS[a], [...(byDecimals.get(ASSET_DECIMALS[a]) ?? []), a]);
  return [...byDecimals].map(([decimals, group]) => ({
    if: { properties: { asset: { enum: group } }, ...(defaultAsset !== undefined && group.includes(defaultAsset) ? {} : { required: ['asset'] }) },
    then: then({ amount: { pattern: amountPattern(decimals) } }),
  }));
}

/** The asset must exist on the chain named in `field` (only chains that lack some asset need a rule). */
const assetOnChainRules = (field: string): object[] =>
  CHAIN_NAMES.filter((c) => CHAINS[c].tokens.length < TOKEN_ASSETS.length).map((c) => ({
    if: { properties: { [field]: { const: c } }, required: [field] },
    then: then({ asset: { enum: [...CHAINS[c].tokens] } }),
  }));

/** toChain must differ from fromChain. */
const differentChainsRules = (): object[] =>
  CHAIN_NAMES.map((c) => ({
    if: { properties: { fromChain: { const: c } }, required: ['fromChain'] },
    then: then({ toChain: { not: { const: c } } }),
  }));

const defaultAsset = fields.asset.parse(undefined) as TokenAsset;

/** horizonDays only with optimize. */
const horizonNeedsOptimize = {
  if: { properties: { horizonDays: { type: 'integer' } }, required: ['horizonDays'] },
  then: { ...then({ optimize: { type: 'string' } }), required: ['optimize'] },
};

export const lendIntentSchema = z
  .strictObject({
    walletId: fields.walletId,
    action: action('lend'),
    amount,
    asset: fields.asset,
    chain: fields.chain,
    optimize: fields.optimize,
    horizonDays: fields.horizonDays,
    speed: fields.speed,
  })
  .meta({ allOf: [...decimalsRules(defaultAsset, TOKEN_ASSETS), ...assetOnChainRules('chain'), horizonNeedsOptimize] })
  .openapi('LendIntentRequest', {
    description: "Lend `amount` of `asset` on `chain`, or where the APY is best among the wallet's chains; USDC elsewhere is bridged there first",
  });

export const withdrawIntentSchema = z
  .strictObject({ walletId: fields.walletId, action: action('withdraw'), amount, asset: fields.asset, chain: required(fields.chain) })
  .meta({ allOf: [...decimalsRules(defaultAsset, TOKEN_ASSETS), ...assetOnChainRules('chain')] })
  .openapi('WithdrawIntentRequest', { description: 'Withdraw `amount` of `asset` from the lending position on `chain`' });

const bridgeAsset = z.literal('USDC').default('USDC').meta({ description: 'Only USDC is bridged (CCTP)' });

export const bridgeIntentSchema = z
  .strictObject({
    walletId: fields.walletId,
    action: action('bridge'),
    amount,
    asset: bridgeAsset,
    fromChain: required(fields.fromChain),
    toChain: required(fields.toChain),
    speed: fields.speed,
  })
  .meta({ allOf: [...decimalsRules('USDC', ['USDC']), ...differentChainsRules()] })
  .openapi('BridgeIntentRequest', { description: 'Move `amount` USDC from `fromChain` to `toChain` (burn, attestation, mint)' });

/** A rebalance source's amount: a positive plain decimal string (its decimals are the asset's: see sourceDecimalsRules). */
const POSITIVE_DECIMAL = '^(?=.*[1-9])\\d+(?:\\.\\d+)?$';
const sourceDecimalPattern = (decimals: number): string => `^(?=.*[1-9])\\d+(?:\\.\\d{1,${decimals}})?$`;

/** Each source's amount carries at most the asset's decimals. */
function sourceDecimalsRules(): object[] {
  const byDecimals = new Map<number, TokenAsset[]>();
  for (const a of TOKEN_ASSETS) byDecimals.set(ASSET_DECIMALS[a], [...(byDecimals.get(ASSET_DECIMALS[a]) ?? []), a]);
  return [...byDecimals].map(([decimals, group]) => ({
    if: { properties: { asset: { enum: group } }, ...(group.includes(defaultAsset) ? {} : { required: ['asset'] }) },
    then: then({ sources: { items: { properties: { amount: { pattern: sourceDecimalPattern(decimals) } } } } }),
  }));
}

const rebalanceSource = z
  .strictObject({
    chain: z.enum(CHAIN_NAMES),
    protocol: z
      .union([z.enum(LENDING_PROTOCOLS), z.null()])
      .meta({ description: 'The lending protocol of the position withdrawn; null for idle funds on `chain`' }),
    amount: z
      .string()
      .regex(new RegExp(POSITIVE_DECIMAL))
      .meta({ description: 'Token units of `asset` this source gives, a positive plain decimal string', examples: ['60'] }),
  })
  .openapi('RebalanceSourceRequest', {
    description: "One source of a rebalance: a position withdrawn (protocol set) or the wallet's idle funds (protocol null)",
  });

export const rebalanceIntentSchema = z
  .strictObject({
    walletId: fields.walletId,
    action: action('rebalance'),
    amount,
    asset: fields.asset,
    toChain: required(fields.toChain),
    toProtocol: required(fields.toProtocol),
    sources: z
      .array(rebalanceSource)
      .min(1)
      .max(MAX_REBALANCE_SOURCES)
      .meta(fields.sources.meta() ?? {}),
    speed: fields.speed,
  })
  .meta({ allOf: [...decimalsRules(defaultAsset, TOKEN_ASSETS), ...sourceDecimalsRules(), ...assetOnChainRules('toChain')] })
  .openapi('RebalanceIntentRequest', {
    description:
      "Move funds from `sources` (positions withdrawn, idle balances) into the `toProtocol` market on `toChain`: one plan withdraws, bridges USDC from every other chain (CCTP) and deposits what arrives. Also enforced, in words: `amount` is exactly the sum of the sources' amounts; no (chain, protocol) appears twice; no source is the target market; a source of an asset other than USDC is on `toChain` (only USDC is bridged); the asset exists on every source's chain.",
  });

/** The request body: a variant per action, chosen by `action`. */
export const createIntentBodySchema = z
  .discriminatedUnion('action', [lendIntentSchema, withdrawIntentSchema, bridgeIntentSchema, rebalanceIntentSchema])
  .openapi('CreateIntentRequest', {
    description:
      'One variant per `action`. Unknown fields are refused. An unknown chain name answers 400 INVALID_CHAIN (details.field, details.supported); every other violation 400 INVALID_REQUEST naming each bad field in details.issues.',
  });
