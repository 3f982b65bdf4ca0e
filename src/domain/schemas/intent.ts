import { z } from 'zod';
import { ASSET_DECIMALS, CHAINS, CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS, isChainName, supportsAsset, type TokenAsset } from '../chains';
import { invalidChain } from '../errors/chain';
import { invalidRequest, type FieldIssue } from '../errors/request';
import { BRIDGE_SPEEDS, INTENT_ACTIONS, MAX_REBALANCE_SOURCES } from '../intent';
import { decimalPlaces, numberToDecimalString, toUnits } from '../money';
import { toFieldIssues } from './parse';
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS, OPTIMIZE_GOALS } from '../optimize';

/** Request fields that name a chain; an unknown name there is INVALID_CHAIN, not INVALID_REQUEST (a rebalance's `sources.N.chain` too). */
export const INTENT_CHAIN_FIELDS = ['chain', 'fromChain', 'toChain'] as const;
type ChainField = (typeof INTENT_CHAIN_FIELDS)[number];

/** The path of a rebalance source's chain field. */
const SOURCE_CHAIN_PATH = /^sources\.\d+\.chain$/;

const DECIMAL = /^\d+(\.\d+)?$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTokenAsset = (v: unknown): v is TokenAsset => typeof v === 'string' && (TOKEN_ASSETS as readonly string[]).includes(v);

/** Message for a required field: "x is required" when absent, `wrong` otherwise. */
const requiredField = (name: string, wrong: string) => (iss: { input?: unknown }) => (iss.input === undefined ? `${name} is required` : wrong);

/**
 * The least an intent moves, in token units (docs/decisions.md, "shared gas"): below it
 * the service's gas would cost many times what is moved.
 */
export const MIN_INTENT_AMOUNT = '0.01';

/** Significant digits a JSON number (an IEEE double) carries exactly. */
const MAX_EXACT_DIGITS = 15;

/** Significant digits in the shortest decimal form of `n` (what the parser kept of the client's number). */
function significantDigits(n: number): number {
  const [mantissa = ''] = Math.abs(n).toExponential().split('e');
  return mantissa.replace('.', '').replace(/0+$/, '').length || 1;
}

/** Whether a plain decimal string is at least 0.01, compared exactly on its digits. */
const atLeastMinimum = (s: string): boolean => {
  const [whole = '0', fraction = ''] = s.split('.');
  return BigInt(whole) > 0n || BigInt((fraction + '00').slice(0, 2)) >= 1n;
};

/** `amount`: a positive number or numeric string in token units (≥ MIN_INTENT_AMOUNT), normalised to a plain decimal string. */
export const intentAmountSchema = z
  .union([z.number(), z.string()], { error: requiredField('amount', 'amount must be a number or a numeric string') })
  .transform((v, ctx) => {
    if (typeof v !== 'number') return v;
    // A JSON number past ~15 significant digits was already rounded by the parser: what the client
    // wrote is lost, so it must come as a string instead of being silently moved as something else.
    if (Number.isFinite(v) && significantDigits(v) > MAX_EXACT_DIGITS) {
      ctx.issues.push({
        code: 'custom',
        input: v,
        message: `amount ${v} has more than ${MAX_EXACT_DIGITS} significant digits, which a JSON number cannot carry exactly; send it as a decimal string`,
      });
      return z.NEVER;
    }
    return numberToDecimalString(v);
  })
  .check((ctx) => {
    const s = ctx.value;
    if (s.startsWith('-') || (DECIMAL.test(s) && !/[1-9]/.test(s))) {
      ctx.issues.push({ code: 'custom', input: s, message: 'amount must be positive' });
    } else if (!DECIMAL.test(s)) {
      ctx.issues.push({ code: 'custom', input: s, message: 'amount must be a plain decimal number such as "10.5"' });
    } else if (!atLeastMinimum(s)) {
      ctx.issues.push({ code: 'custom', input: s, message: `amount must be at least ${MIN_INTENT_AMOUNT} (the minimum an intent moves)` });
    }
  })
  .meta({
    description:
      `Token units of \`asset\`: a plain decimal string (digits, optionally a point and digits: no sign, exponent or spaces) or a JSON number, at least ${MIN_INTENT_AMOUNT}, ` +
      `with at most the asset's decimals (${TOKEN_ASSETS.map((a) => `${a} ${ASSET_DECIMALS[a]}`).join(', ')}). ` +
      `A number is read in its shortest decimal form and must carry at most ${MAX_EXACT_DIGITS} significant digits (send larger precision as a string).`,
    examples: ['10.5', 25],
  });

/** What each chain field means, for the API reference. */
const CHAIN_FIELD_DOCS: Record<ChainField, string> = {
  chain: "lend: where to lend (the best rate among the wallet's chains when absent); withdraw: the chain of the position (required); not used by bridge",
  fromChain: 'bridge only (required there): the chain the USDC leaves',
  toChain: 'bridge: the chain the USDC arrives on, must differ from fromChain; rebalance: the chain of the target market (required for both)',
};

/** A rebalance source's amount: a positive plain decimal string in token units (at most the asset's decimals). */
const sourceAmountSchema = z
  .string({ error: requiredField('amount', 'amount must be a decimal string such as "10.5"') })
  .check((ctx) => {
    const s = ctx.value;
    if (!DECIMAL.test(s)) ctx.issues.push({ code: 'custom', input: s, message: 'amount must be a plain decimal string such as "10.5"' });
    else if (!/[1-9]/.test(s)) ctx.issues.push({ code: 'custom', input: s, message: 'amount must be positive' });
  })
  .meta({ description: 'Token units of `asset` this source gives, a plain decimal string', examples: ['60'] });

/** One source of a rebalance: a position (protocol set) or the idle funds (protocol null) on a chain. */
const rebalanceSourceSchema = z
  .strictObject(
    {
      chain: z.enum(CHAIN_NAMES, { error: requiredField('chain', `chain must be one of: ${CHAIN_NAMES.join(', ')}`) }),
      protocol: z
        .enum(LENDING_PROTOCOLS, {
          error: (iss) =>
            iss.input === undefined
              ? 'protocol is required (null for idle funds)'
              : `protocol must be one of: ${LENDING_PROTOCOLS.join(', ')}, or null for idle funds`,
        })
        .nullable()
        .meta({ description: 'The lending protocol of the position withdrawn, or null for idle funds of the wallet on `chain`' }),
      amount: sourceAmountSchema,
    },
    { error: 'a source must be an object {chain, protocol, amount}' },
  )
  .meta({ description: 'Where some of the moved funds come from' });

const chainSchema = (field: ChainField) =>
  z
    .enum(CHAIN_NAMES, { error: `${field} must be one of: ${CHAIN_NAMES.join(', ')}` })
    .optional()
    .meta({ description: CHAIN_FIELD_DOCS[field] });

/** The sources of a body as far as they are objects (the shape of each is the field schema's to judge). */
const sourcesOf = (value: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(value.sources) ? value.sources.map((s: unknown) => (isRecord(s) ? s : {})) : [];

/**
 * A rebalance's own rules: its target and sources are required; no other
 * chain field; each source is distinct and is not the target market; only
 * USDC crosses chains; its amounts carry at most the asset's decimals and
 * `amount` is exactly their sum.
 */
function rebalanceRules(value: Record<string, unknown>, asset: TokenAsset | undefined, issue: (path: string, message: string) => void): void {
  const present = (field: string): boolean => value[field] !== undefined;
  for (const field of ['chain', 'fromChain']) {
    if (present(field)) issue(field, `${field} is not used by rebalance intents; sources name where the funds come from`);
  }
  if (!present('toChain')) issue('toChain', 'toChain is required for rebalance');
  if (!present('toProtocol')) issue('toProtocol', 'toProtocol is required for rebalance');
  if (!present('sources')) issue('sources', 'sources is required for rebalance');
  const sources = sourcesOf(value);
  const seen = new Set<string>();
  let sum = 0n;
  let summable = asset !== undefined && sources.length > 0;
  sources.forEach((s, i) => {
    const where = `${String(s.chain)}/${s.protocol === null ? 'idle' : String(s.protocol)}`;
    if (seen.has(where)) issue(`sources.${i}`, `sources name ${where} more than once`);
    seen.add(where);
    if (s.chain === value.toChain && s.protocol === value.toProtocol) issue(`sources.${i}`, 'a source cannot be the target market (toChain, toProtocol)');
    if (asset !== undefined && asset !== 'USDC' && typeof s.chain === 'string' && present('toChain') && s.chain !== value.toChain) {
      issue(`sources.${i}.chain`, `only USDC can be bridged (CCTP): a ${asset} source must be on toChain`);
    }
    const amount = s.amount;
    if (asset === undefined || typeof amount !== 'string' || !DECIMAL.test(amount)) {
      summable = false;
    } else if (decimalPlaces(amount) > ASSET_DECIMALS[asset]) {
      issue(`sources.${i}.amount`, `amount has more than ${ASSET_DECIMALS[asset]} decimals, the precision of ${asset}`);
      summable = false;
    } else sum += toUnits(amount, asset);
  });
  const amount = value.amount;
  if (summable && asset !== undefined && typeof amount === 'string' && DECIMAL.test(amount) && decimalPlaces(amount) <= ASSET_DECIMALS[asset]) {
    if (toUnits(amount, asset) !== sum) issue('amount', "amount must be the sum of the sources' amounts");
  }
}

/** Rules that read several fields: per-action chain fields, asset on the named chains, decimals of the asset. */
function crossFieldRules(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value)) return;
  const issue = (path: string, message: string): void => {
    ctx.addIssue({ code: 'custom', path: [path], message, input: value[path] });
  };
  const present = (field: string): boolean => value[field] !== undefined;
  const { action } = value;
  const asset = isTokenAsset(value.asset) ? value.asset : undefined;

  if (action === 'withdraw' && !present('chain')) issue('chain', 'chain is required for withdraw');
  if (action === 'lend' || action === 'withdraw') {
    if (present('fromChain')) issue('fromChain', 'fromChain is only used by bridge intents');
    if (present('toChain')) issue('toChain', 'toChain is only used by bridge and rebalance intents');
  }
  if (action !== 'rebalance') {
    for (const field of ['toProtocol', 'sources']) if (present(field)) issue(field, `${field} is only used by rebalance intents`);
  }
  if (action === 'withdraw' || action === 'bridge' || action === 'rebalance') {
    for (const field of ['optimize', 'horizonDays']) if (present(field)) issue(field, `${field} is only used by lend intents`);
  }
  if (action === 'withdraw' && present('speed')) issue('speed', 'speed is only used by bridge and lend intents');
  if (present('horizonDays') && !present('optimize')) issue('horizonDays', 'horizonDays is only used with optimize: netReturn');
  if (action === 'bridge') {
    if (present('chain')) issue('chain', 'chain is not used by bridge intents; use fromChain and toChain');
    if (!present('fromChain')) issue('fromChain', 'fromChain is required for bridge');
    if (!present('toChain')) issue('toChain', 'toChain is required for bridge');
    if (present('fromChain') && value.fromChain === value.toChain) issue('toChain', 'toChain must differ from fromChain');
    if (asset !== undefined && asset !== 'USDC') issue('asset', 'only USDC can be bridged (CCTP)');
  }
  if (action === 'rebalance') rebalanceRules(value, asset, issue);
  if (asset === undefined) return;
  const named = new Set([...INTENT_CHAIN_FIELDS.map((field) => value[field]), ...sourcesOf(value).map((s) => s.chain)]);
  for (const chain of named) {
    if (typeof chain === 'string' && isChainName(chain) && !supportsAsset(chain, asset)) {
      issue('asset', `${asset} is not supported on ${chain}`);
    }
  }
  const amount = value.amount;
  if (typeof amount === 'string' && DECIMAL.test(amount) && decimalPlaces(amount) > ASSET_DECIMALS[asset]) {
    issue('amount', `amount has more than ${ASSET_DECIMALS[asset]} decimals, the precision of ${asset}`);
  }
}

/** Body of POST /intents (the API parameter table + docs/decisions.md); unknown fields are rejected. */
export const createIntentSchema = z
  .strictObject(
    {
      walletId: z
        .string({ error: requiredField('walletId', 'walletId must be a string') })
        .min(1, 'walletId must not be empty')
        .meta({ description: 'One of your wallets', examples: ['svc_wallet_0123456789abcdef0123456789abcdef'] }),
      action: z.enum(INTENT_ACTIONS, { error: requiredField('action', `action must be one of: ${INTENT_ACTIONS.join(', ')}`) }).meta({
        description:
          'lend: supply to the best market (bridging USDC there first when needed); withdraw: take a position back; bridge: move USDC between chains (CCTP); rebalance: move funds from positions and idle balances into one market (withdraw, bridge, deposit)',
      }),
      amount: intentAmountSchema,
      asset: z
        .enum(TOKEN_ASSETS, { error: `asset must be one of: ${TOKEN_ASSETS.join(', ')}` })
        .default('USDC')
        .meta({
          description: `The token moved; it must exist on every chain the request names (${CHAIN_NAMES.filter(
            (c) => CHAINS[c].tokens.length < TOKEN_ASSETS.length,
          )
            .map((c) => `${c}: ${CHAINS[c].tokens.join(', ')} only`)
            .join('; ')}); bridge moves USDC only`,
        }),
      chain: chainSchema('chain'),
      fromChain: chainSchema('fromChain'),
      toChain: chainSchema('toChain'),
      toProtocol: z
        .enum(LENDING_PROTOCOLS, { error: `toProtocol must be one of: ${LENDING_PROTOCOLS.join(', ')}` })
        .optional()
        .meta({ description: 'rebalance only (required there): the lending protocol of the target market on toChain' }),
      sources: z
        .array(rebalanceSourceSchema, { error: 'sources must be a list of {chain, protocol, amount}' })
        .min(1, 'sources must name at least one source')
        .max(MAX_REBALANCE_SOURCES, `sources may name at most ${MAX_REBALANCE_SOURCES} sources`)
        .optional()
        .meta({
          description:
            "rebalance only (required there): where the moved funds come from, each a position withdrawn (protocol set) or the wallet's idle funds (protocol null) on a chain; `amount` is the sum of theirs",
        }),
      optimize: z
        .enum(OPTIMIZE_GOALS, { error: `optimize must be one of: ${OPTIMIZE_GOALS.join(', ')}` })
        .optional()
        .meta({
          description:
            "lend only, opt-in: `netReturn` chooses the market (when `chain` is absent) by what the amount nets over `horizonDays` (earnings at the APY less route fees and gas, from the wallet's funds) instead of the highest APY",
        }),
      horizonDays: z
        .number({ error: 'horizonDays must be a whole number of days' })
        .int('horizonDays must be a whole number of days')
        .min(1, 'horizonDays must be at least 1')
        .max(MAX_HORIZON_DAYS, `horizonDays must be at most ${MAX_HORIZON_DAYS}`)
        .optional()
        .meta({ description: `with optimize only: the days earnings are counted over (default ${DEFAULT_HORIZON_DAYS})`, examples: [30] }),
      speed: z
        .enum(BRIDGE_SPEEDS, { error: `speed must be one of: ${BRIDGE_SPEEDS.join(', ')}` })
        .optional()
        .meta({
          description:
            'bridge, lend and rebalance: how fast the CCTP transfers are attested. `fast` (default): in seconds, for a fee of a few basis points; `standard`: after hard finality (minutes on the public networks), no fee',
        }),
    },
    { error: 'the request body must be a JSON object' },
  )
  // runs even when single fields failed, so one answer names every bad field
  .superRefine(crossFieldRules, { when: (payload) => isRecord(payload.value) });

export type CreateIntentInput = z.input<typeof createIntentSchema>;
export type CreateIntentParams = z.output<typeof createIntentSchema>;

/** Whether a field issue is an unknown chain name (answered INVALID_CHAIN rather than INVALID_REQUEST). */
export function isUnknownChainIssue(issue: FieldIssue): boolean {
  return ((INTENT_CHAIN_FIELDS as readonly string[]).includes(issue.path) || SOURCE_CHAIN_PATH.test(issue.path)) && issue.code === 'invalid_value';
}

/** The value at a dotted path of the body ("sources.0.chain"). */
function valueAt(input: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (isRecord(v) || Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined), input);
}

/**
 * Parses a POST /intents body. Throws INVALID_CHAIN (details: field, supported,
 * and every field issue) when a chain name is unknown, else INVALID_REQUEST
 * naming every bad field.
 */
export function parseCreateIntent(input: unknown): CreateIntentParams {
  const result = createIntentSchema.safeParse(input);
  if (result.success) return result.data;
  const issues = toFieldIssues(result.error);
  const unknownChain = issues.find(isUnknownChainIssue);
  if (unknownChain !== undefined) {
    const raw = valueAt(input, unknownChain.path);
    const name = typeof raw === 'string' ? raw : JSON.stringify(raw);
    throw invalidChain(name, { field: unknownChain.path, supported: CHAIN_NAMES, issues });
  }
  throw invalidRequest(issues);
}
