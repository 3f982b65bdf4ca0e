import { z } from 'zod';
import { ASSET_DECIMALS, CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS, type TokenAsset } from '../chains';
import { decimalPlaces } from '../money';
import { STANDING_DEFAULTS, STANDING_LIMITS, type SimulateParams } from '../standingIntent';
import { invalidRequest } from '../errors/request';
import { intentAmountSchema } from './intent';
import { isIsoInstant } from './yieldHistory';
import { parseInput } from './parse';

/** Message for a required field: "x is required" when absent, `wrong` otherwise. */
const requiredField = (name: string, wrong: string) => (iss: { input?: unknown }) => (iss.input === undefined ? `${name} is required` : wrong);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTokenAsset = (v: unknown): v is TokenAsset => typeof v === 'string' && (TOKEN_ASSETS as readonly string[]).includes(v);

const assetField = z.enum(TOKEN_ASSETS, { error: requiredField('asset', `asset must be one of: ${TOKEN_ASSETS.join(', ')}`) });

const wholeNumber = (name: string, limits: { min: number; max: number }, fallback: number, description: string) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(limits.min, `${name} must be at least ${limits.min}`)
    .max(limits.max, `${name} must be at most ${limits.max}`)
    .default(fallback)
    .meta({ description: `${description} (${limits.min}-${limits.max}, default ${fallback})`, examples: [fallback] });

/** The rule's fields, shared by a standing intent and a backtest. */
const ruleFields = {
  horizonDays: wholeNumber(
    'horizonDays',
    STANDING_LIMITS.horizonDays,
    STANDING_DEFAULTS.horizonDays,
    'The days the extra yield of a move is counted over, against what the move costs',
  ),
  minGainUsd: z
    .number({ error: 'minGainUsd must be a number' })
    .min(STANDING_LIMITS.minGainUsd.min, `minGainUsd must be at least ${STANDING_LIMITS.minGainUsd.min}`)
    .max(STANDING_LIMITS.minGainUsd.max, `minGainUsd must be at most ${STANDING_LIMITS.minGainUsd.max}`)
    .default(STANDING_DEFAULTS.minGainUsd)
    .meta({
      description: `USD a move must gain over the horizon, net of every cost, at least (and at least ${STANDING_DEFAULTS.minGainFraction * 100} % of its gross gain); ${STANDING_LIMITS.minGainUsd.min}-${STANDING_LIMITS.minGainUsd.max}, default ${STANDING_DEFAULTS.minGainUsd}`,
      examples: [STANDING_DEFAULTS.minGainUsd],
    }),
  maxMovesPerDay: wholeNumber('maxMovesPerDay', STANDING_LIMITS.maxMovesPerDay, STANDING_DEFAULTS.maxMovesPerDay, 'Moves at most per rolling 24 hours'),
};

/** `amount` with at most the asset's decimals (only checkable once both fields are read). */
function amountPrecision(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value) || !isTokenAsset(value.asset) || typeof value.amount !== 'string') return;
  const decimals = ASSET_DECIMALS[value.asset];
  if (/^\d+(\.\d+)?$/.test(value.amount) && decimalPlaces(value.amount) > decimals) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      input: value.amount,
      message: `amount has more than ${decimals} decimals, the precision of ${value.asset}`,
    });
  }
}

/** Body of POST /standing-intents and input of createStandingIntent (both doors validate with it); unknown fields are refused. */
export const createStandingSchema = z
  .strictObject(
    {
      walletId: z
        .string({ error: requiredField('walletId', 'walletId must be a string') })
        .min(1, 'walletId must not be empty')
        .meta({ description: 'One of your wallets', examples: ['svc_wallet_0123456789abcdef0123456789abcdef'] }),
      asset: assetField.meta({ description: 'The token kept lent; the wallet must have a chain where it exists', examples: ['USDC'] }),
      amount: intentAmountSchema
        .optional()
        .meta({ description: "How much of the wallet's balance of the asset to keep lent, in token units (absent: all of it)", examples: ['250'] }),
      ...ruleFields,
    },
    { error: 'the request body must be a JSON object' },
  )
  // runs even when single fields failed, so one answer names every bad field
  .superRefine(amountPrecision, { when: (payload) => isRecord(payload.value) });

export type CreateStandingInput = z.input<typeof createStandingSchema>;
export type CreateStandingParams = z.output<typeof createStandingSchema>;

/** Query of the standing intents and decisions lists (REST and the GraphQL connections' forward reads). */
export const standingPageSchema = z.strictObject({
  first: z.coerce
    .number({ error: 'first must be a whole number' })
    .int('first must be a whole number')
    .min(1, 'first must be at least 1')
    .max(100, 'first must be at most 100')
    .default(20)
    .meta({ description: 'Page size, 1-100 (default 20)' }),
  after: z.string().min(1, 'after must not be empty').optional().meta({ description: '`pageInfo.endCursor` of the previous page' }),
});

/** Longest window a backtest replays: the APY history kept. */
export const SIMULATE_MAX_DAYS = 90;
/** The window when `from` is absent: 30 days before `to`. */
export const SIMULATE_DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

const instant = (field: 'from' | 'to', description: string, example: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(isIsoInstant, `${field} must be an ISO 8601 date or date-time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)`)
    .optional()
    .meta({ description, examples: [example] });

/** Body of POST /standing-intents/simulate (both doors); the window's defaults need the time: see parseSimulate. */
export const simulateStandingSchema = z
  .strictObject(
    {
      asset: assetField.meta({ description: 'The token whose markets are replayed', examples: ['USDC'] }),
      amount: intentAmountSchema.meta({ description: 'What the strategy keeps lent, in token units', examples: ['10000'] }),
      ...ruleFields,
      from: instant('from', `Start of the replay (inclusive), ISO 8601; default ${SIMULATE_DEFAULT_DAYS} days before \`to\``, '2026-01-01T00:00:00Z'),
      to: instant('to', 'End of the replay (exclusive), ISO 8601; default now', '2026-01-31T00:00:00Z'),
      start: z
        .strictObject(
          {
            chain: z.enum(CHAIN_NAMES, { error: requiredField('start.chain', `start.chain must be one of: ${CHAIN_NAMES.join(', ')}`) }),
            protocol: z.enum(LENDING_PROTOCOLS, { error: requiredField('start.protocol', `start.protocol must be one of: ${LENDING_PROTOCOLS.join(', ')}`) }),
          },
          { error: 'start must be an object with chain and protocol' },
        )
        .optional()
        .meta({ description: 'The market the funds start in (default: the best at the first sample)' }),
    },
    { error: 'the request body must be a JSON object' },
  )
  .superRefine(amountPrecision, { when: (payload) => isRecord(payload.value) });

export type SimulateStandingInput = z.input<typeof simulateStandingSchema>;

/**
 * A backtest's question from a body, at `now`: the window defaults to the
 * last SIMULATE_DEFAULT_DAYS days up to now, must run forwards and be at most
 * SIMULATE_MAX_DAYS long (INVALID_REQUEST naming `from` or `to` otherwise).
 */
export function parseSimulate(body: unknown, now: Date): SimulateParams {
  const input = parseInput(simulateStandingSchema, body);
  const to = input.to === undefined ? now.getTime() : Date.parse(input.to);
  const from = input.from === undefined ? to - SIMULATE_DEFAULT_DAYS * DAY_MS : Date.parse(input.from);
  if (from >= to) throw invalidRequest([{ path: input.from === undefined ? 'to' : 'from', message: 'from must be before to' }]);
  if (to - from > SIMULATE_MAX_DAYS * DAY_MS)
    throw invalidRequest([{ path: 'from', message: `the window is at most ${SIMULATE_MAX_DAYS} days (the APY history kept)` }]);
  return {
    asset: input.asset,
    amount: input.amount,
    horizonDays: input.horizonDays,
    minGainUsd: input.minGainUsd,
    maxMovesPerDay: input.maxMovesPerDay,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    ...(input.start && { start: input.start }),
  };
}
