import { z } from './zod';
import type { Agree } from './viewAgreement';
import { CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS } from '../../domain/chains';
import { DECISION_OUTCOMES, SKIP_REASONS, STANDING_INTENT_STATUSES, type SimulateResult } from '../../domain/standingIntent';
import { createStandingSchema, simulateStandingSchema } from '../../domain/schemas/standing';
import type { DecisionView, StandingIntentView } from '../../app/standing/standingView';
import type { StandingPage } from '../../app/standing/manageStanding';
import type { StandingEarningsView } from '../../app/standing/standingEarnings';
import { amountPattern } from './intentBody';
import { PROTOCOL_A, PROTOCOL_B } from './examples';

/** The standing intent bodies of the OpenAPI document (requests and answers), with their examples. */

const timestamp = (description: string) => z.iso.datetime().meta({ description, examples: ['2026-01-31T12:00:00.000Z'] });
const STANDING_ID = 'svc_standing_0123456789abcdef0123456789abcdef';
const WALLET_ID = 'svc_wallet_0123456789abcdef0123456789abcdef';
const DECISION_ID = 'svc_decision_019c1a2b3c4d0000a1b2c3d4e5f60718';
const INTENT_ID = 'intent_0123456789abcdef0123456789abcdef';

/** A decimal string or JSON number of token units, at least 0.01 (its decimals at most the asset's). */
const amountBody = (description: string) =>
  z
    .union([
      z
        .string()
        .regex(new RegExp(amountPattern()))
        .meta({ examples: ['250'] }),
      z.number().min(0.01).lt(1e21),
    ])
    .meta({ description });

const rule = createStandingSchema.shape;

export const createStandingBodySchema = z
  .strictObject({
    walletId: rule.walletId,
    asset: rule.asset,
    amount: amountBody(
      "How much of the wallet's balance of the asset to keep lent, in token units (absent: all of it); at most the asset's decimals",
    ).optional(),
    horizonDays: rule.horizonDays,
    minGainUsd: rule.minGainUsd,
    maxMovesPerDay: rule.maxMovesPerDay,
  })
  .openapi('CreateStandingIntentRequest', { description: 'Unknown fields are refused; every bad field is named in details.issues' });

const sim = simulateStandingSchema.shape;
export const simulateBodySchema = z
  .strictObject({
    asset: sim.asset,
    amount: amountBody("What the strategy keeps lent, in token units; at most the asset's decimals"),
    horizonDays: sim.horizonDays,
    minGainUsd: sim.minGainUsd,
    maxMovesPerDay: sim.maxMovesPerDay,
    from: sim.from,
    to: sim.to,
    start: sim.start,
  })
  .openapi('SimulateStandingIntentRequest', {
    description: 'A rule replayed over the recorded APY history: `from` before `to`, at most 90 days apart (default: the 30 days up to now)',
  });

export const standingIntentSchema = z
  .strictObject({
    id: z.string().meta({ description: 'svc_standing_ and 32 hex characters', examples: [STANDING_ID] }),
    walletId: z.string().meta({ description: 'The wallet whose funds it keeps lent', examples: [WALLET_ID] }),
    asset: z.enum(TOKEN_ASSETS).meta({ description: 'The token kept lent' }),
    amount: z.union([z.string(), z.null()]).meta({ description: "Token units kept lent; null: all of the wallet's balance of the asset" }),
    horizonDays: z.number().int().meta({ description: "The days a move's extra yield is counted over" }),
    minGainUsd: z.number().meta({ description: 'USD a move must gain over the horizon net of its costs, at least (and 10 % of its gross gain)' }),
    maxMovesPerDay: z.number().int().meta({ description: 'Moves at most per rolling 24 hours' }),
    status: z.enum(STANDING_INTENT_STATUSES).meta({ description: 'active (decided on every rate sample) or paused (nothing decided)' }),
    createdAt: timestamp('When it was created'),
    updatedAt: timestamp('When it was last paused, resumed or created'),
    version: z.number().int().meta({ description: '+1 on every change (pause, resume, each decision recorded on it)' }),
    lastDecisionAt: z
      .union([timestamp('The sample minute of its last decision'), z.null()])
      .meta({ description: 'The sample minute of its last decision; null before the first' }),
    lastIntentId: z.union([z.string(), z.null()]).meta({ description: 'The rebalance intent of its last move; null before the first' }),
  })
  .openapi('StandingIntent', { description: "A standing intent: keeps a wallet's asset lent in the market with the best net yield" });

const pageInfo = z
  .strictObject({
    hasNextPage: z.boolean().meta({ description: 'Whether older items follow' }),
    endCursor: z.union([z.string(), z.null()]).meta({ description: 'Pass as `after` for the next page; null on an empty page' }),
  })
  .meta({ description: 'Where this page ends' });

export const standingPageSchema = z
  .strictObject({ standingIntents: z.array(standingIntentSchema).meta({ description: 'Newest first, at most `first` (≤ 100)' }), pageInfo })
  .openapi('StandingIntentPage', { description: "A page of the account's standing intents" });

const market = { chain: z.enum(CHAIN_NAMES), protocol: z.enum(LENDING_PROTOCOLS) };
const marketSchema = z.strictObject(market).meta({ description: 'A lending market' });
const marketWithApy = z.strictObject({ ...market, apy: z.number().meta({ description: 'Supply APY, percent' }) });

const numbersSchema = z
  .strictObject({
    target: z
      .union([marketWithApy, z.null()])
      .meta({ description: 'The market a move goes (or would have gone) to, at the APY it was counted at; null when none' }),
    sources: z
      .array(
        z.strictObject({
          chain: z.enum(CHAIN_NAMES),
          protocol: z.union([z.enum(LENDING_PROTOCOLS), z.null()]).meta({ description: 'The market withdrawn from; null: idle funds on the chain' }),
          amount: z.string().meta({ description: 'Token units it brings' }),
          apy: z.number().meta({ description: 'The APY it earned, as counted' }),
        }),
      )
      .meta({ description: 'Where the moved funds come from' }),
    amount: z.string().meta({ description: 'Token units moved; "0" when nothing moves' }),
    costs: z
      .strictObject({
        withdrawGasUsd: z.number(),
        bridgeFeeUsd: z.number(),
        bridgeGasUsd: z.number(),
        depositGasUsd: z.number(),
        totalUsd: z.number(),
      })
      .meta({ description: "Every cost of the move, USD at the sample's prices" }),
    gainUsd: z.number().meta({ description: 'Extra yield over the horizon, USD, before costs' }),
    netGainUsd: z.number().meta({ description: 'gainUsd less every cost' }),
    thresholdUsd: z.number().meta({ description: 'What netGainUsd had to exceed: the larger of minGainUsd and 10 % of gainUsd' }),
    horizonDays: z.number().int(),
  })
  .meta({ description: 'The numbers behind the decision, whether it moved or not' });

export const decisionSchema = z
  .strictObject({
    id: z.string().meta({ description: 'svc_decision_… (ordered by time)', examples: [DECISION_ID] }),
    standingIntentId: z.string().meta({ examples: [STANDING_ID] }),
    walletId: z.string().meta({ examples: [WALLET_ID] }),
    sampleAt: timestamp('The sample minute decided on (one decision per standing intent per minute)'),
    decidedAt: timestamp('When it was decided'),
    trigger: z.enum(['rate_sample', 'funds_arrived']).meta({ description: 'A new rate sample, or funds arriving on the wallet' }),
    outcome: z.enum(DECISION_OUTCOMES).meta({ description: 'rebalanced (a rebalance intent was submitted) or skipped' }),
    reason: z.union([z.enum(SKIP_REASONS), z.null()]).meta({ description: 'Why it did not move; null when it moved' }),
    rule: z.union([z.string(), z.null()]).meta({ description: 'The spending policy rule that refused the move (reason policy); null otherwise' }),
    intentId: z.union([z.string(), z.null()]).meta({ description: 'The rebalance intent a move submitted; null otherwise' }),
    numbers: numbersSchema,
  })
  .openapi('StandingDecision', { description: 'One decision of a standing intent, with its numbers' });

export const decisionPageSchema = z
  .strictObject({ decisions: z.array(decisionSchema).meta({ description: 'Newest first, at most `first` (≤ 100); kept 90 days' }), pageInfo })
  .openapi('StandingDecisionPage', { description: "A page of a standing intent's decisions" });

const earnings = {
  earnedUsd: z.number().meta({ description: 'Interest earned, USD' }),
  costsUsd: z.number().meta({ description: 'What moves cost, USD' }),
  netUsd: z.number().meta({ description: 'earnedUsd less costsUsd' }),
};

export const simulateResultSchema = z
  .strictObject({
    from: timestamp('Start of the replay'),
    to: timestamp('End of the replay'),
    samples: z.number().int().meta({ description: 'Sample minutes replayed' }),
    moves: z
      .array(
        z.strictObject({
          at: timestamp('The sample minute of the move'),
          from: marketWithApy,
          to: marketWithApy,
          amount: z.string(),
          costUsd: z.number(),
          netGainUsd: z.number(),
        }),
      )
      .meta({ description: 'Every move the rule made, oldest first' }),
    strategy: z.strictObject(earnings).meta({ description: "The standing intent's rule, moves and costs included" }),
    todaysBest: z
      .strictObject({ ...earnings, market: marketSchema.nullable() })
      .meta({ description: 'Staying all along in the market best at the last sample (market null: no sample in the window)' }),
    firstMarket: z
      .strictObject({ ...earnings, market: marketSchema.nullable() })
      .meta({ description: 'Staying all along in the market the funds started in (market null: no sample in the window)' }),
    series: z
      .array(z.strictObject({ ...market, points: z.array(z.tuple([z.string(), z.number()])).meta({ description: '[at, apy] pairs' }) }))
      .meta({ description: "Each market's APY per sample, for a chart" }),
    cumulative: z
      .array(z.tuple([z.string(), z.number(), z.number()]))
      .meta({ description: '[at, strategyUsd, firstMarketUsd]: cumulative earnings per sample' }),
  })
  .openapi('SimulateStandingIntentResult', { description: "A backtest's answer: the rule against staying put" });

export const standingEarningsSchema = z
  .strictObject({
    standingIntentId: z.string().meta({ description: 'The standing intent' }),
    walletId: z.string().meta({ description: 'Its wallet' }),
    asset: z.enum(TOKEN_ASSETS).meta({ description: 'Its asset' }),
    principal: z
      .string()
      .nullable()
      .meta({ description: 'What the wallet put into its positions of the asset and kept there, token units; null: no position the service supplied' }),
    earned: z.string().nullable().meta({
      description:
        "Interest the asset earned on the wallet in every market it was in (the protocols' index growth of what the service supplied; moves carry it over, withdraws realise it), token units, exact",
    }),
    external: z
      .string()
      .optional()
      .meta({ description: "What others supplied to the wallet's positions of the asset: not interest (absent when a position's ledger has no index)" }),
    moves: z
      .number()
      .int()
      .meta({ description: "Rebalance intents of the wallet's asset since the standing intent was created that spent anything (completed or failed)" }),
    movesCostUsd: z.number().meta({ description: 'Their gas and CCTP fees, USD' }),
    earnedUsd: z.number().nullable().meta({ description: '`earned` in USD (stablecoins 1:1; null for other assets)' }),
    netUsd: z.number().nullable().meta({ description: 'earnedUsd − movesCostUsd: what the strategy earned net of its costs' }),
  })
  .openapi('StandingIntentEarnings', { description: "What a standing intent's asset earned on the wallet, and what its moves cost" });

export const standingIdParam = z.object({
  standingIntentId: z
    .string()
    .meta({ description: "A standing intent id (any other value, or another account's, is 404 STANDING_INTENT_NOT_FOUND)", examples: [STANDING_ID] }),
});

const standing: StandingIntentView = {
  id: STANDING_ID,
  walletId: WALLET_ID,
  asset: 'USDC',
  amount: '250',
  horizonDays: 30,
  minGainUsd: 1,
  maxMovesPerDay: 2,
  status: 'active',
  createdAt: '2026-01-31T12:00:00.000Z',
  updatedAt: '2026-01-31T12:00:00.000Z',
  version: 1,
  lastDecisionAt: null,
  lastIntentId: null,
};

const decision: DecisionView = {
  id: DECISION_ID,
  standingIntentId: STANDING_ID,
  walletId: WALLET_ID,
  sampleAt: '2026-02-01T09:14:00.000Z',
  decidedAt: '2026-02-01T09:14:01.250Z',
  trigger: 'rate_sample',
  outcome: 'rebalanced',
  reason: null,
  rule: null,
  intentId: INTENT_ID,
  numbers: {
    target: { chain: 'arbitrum-sepolia', protocol: PROTOCOL_A, apy: 6.1 },
    sources: [{ chain: 'base-sepolia', protocol: PROTOCOL_B, amount: '250', apy: 3.9 }],
    amount: '250',
    costs: { withdrawGasUsd: 0.02, bridgeFeeUsd: 0.03, bridgeGasUsd: 0.04, depositGasUsd: 0.05, totalUsd: 0.14 },
    gainUsd: 0.45,
    netGainUsd: 0.31,
    thresholdUsd: 0.25,
    horizonDays: 30,
  },
};

const simulated: SimulateResult = {
  from: '2026-01-01T00:00:00.000Z',
  to: '2026-01-31T00:00:00.000Z',
  samples: 43200,
  moves: [
    {
      at: '2026-01-12T08:31:00.000Z',
      from: { chain: 'base-sepolia', protocol: PROTOCOL_B, apy: 3.9 },
      to: { chain: 'arbitrum-sepolia', protocol: PROTOCOL_A, apy: 6.1 },
      amount: '10000',
      costUsd: 0.14,
      netGainUsd: 17.9,
    },
  ],
  strategy: { earnedUsd: 44.1, costsUsd: 0.14, netUsd: 43.96 },
  todaysBest: { earnedUsd: 47.2, costsUsd: 0, netUsd: 47.2, market: { chain: 'arbitrum-sepolia', protocol: PROTOCOL_A } },
  firstMarket: { earnedUsd: 32.1, costsUsd: 0, netUsd: 32.1, market: { chain: 'base-sepolia', protocol: PROTOCOL_B } },
  series: [{ chain: 'base-sepolia', protocol: PROTOCOL_B, points: [['2026-01-01T00:00:00.000Z', 3.9]] }],
  cumulative: [['2026-01-01T00:00:00.000Z', 0, 0]],
};

const earningsExample: StandingEarningsView = {
  standingIntentId: STANDING_ID,
  walletId: WALLET_ID,
  asset: 'USDC',
  principal: '249.86',
  earned: '1.204117',
  moves: 1,
  movesCostUsd: 0.14,
  earnedUsd: 1.204117,
  netUsd: 1.064117,
};

export const STANDING_EXAMPLES = {
  earnings: earningsExample,
  create: { walletId: WALLET_ID, asset: 'USDC', amount: '250' },
  createFull: { walletId: WALLET_ID, asset: 'USDC', horizonDays: 14, minGainUsd: 5, maxMovesPerDay: 1 },
  standing,
  paused: { ...standing, status: 'paused', version: 2, updatedAt: '2026-02-01T10:00:00.000Z' },
  page: { standingIntents: [standing], pageInfo: { hasNextPage: false, endCursor: 'WyIyMDI2LTAxLTMxVDEyOjAwOjAwLjAwMFoiLCJzdmNfc3RhbmRpbmdfMDEyMyJd' } },
  decision,
  skipped: {
    ...decision,
    outcome: 'skipped',
    reason: 'policy',
    rule: 'chains',
    intentId: null,
  },
  decisionPage: { decisions: [decision], pageInfo: { hasNextPage: true, endCursor: 'WyIyMDI2LTAyLTAxVDA5OjE0OjAwLjAwMFoiLCJzdmNfZGVjaXNpb25fMDEiXQ' } },
  simulate: {
    asset: 'USDC',
    amount: '10000',
    from: '2026-01-01T00:00:00Z',
    to: '2026-01-31T00:00:00Z',
    start: { chain: 'base-sepolia', protocol: PROTOCOL_B },
  },
  simulated,
};

/** The views and their schemas agree (compile time), as schemas.ts checks the others. */
const agreements: [
  Agree<z.output<typeof standingIntentSchema>, StandingIntentView>,
  Agree<z.output<typeof standingPageSchema>, { standingIntents: StandingIntentView[]; pageInfo: StandingPage<StandingIntentView>['pageInfo'] }>,
  Agree<z.output<typeof decisionSchema>, DecisionView>,
  Agree<z.output<typeof simulateResultSchema>, SimulateResult>,
  Agree<z.output<typeof standingEarningsSchema>, StandingEarningsView>,
] = [true, true, true, true, true];
void agreements;
