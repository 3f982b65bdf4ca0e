import { builder } from '../../builder';
import { TokenAssetEnum } from '../enums';
import { requirePrincipal, withoutNulls } from '../../resolverHelpers';
import { createStandingIntentOnce, deleteStandingIntent, pauseStandingIntent, resumeStandingIntent } from '../../../app/standing/manageStanding';
import { simulateRequest } from '../../../app/standing/simulateRequest';
import { actorFor } from '../../../app/audit/recordAudit';
import { createStandingCommandOf, createStandingFields } from '../../commands/standing';
import { STANDING_DEFAULTS } from '../../../domain/standingIntent';
import { StandingIntentRef } from './type';
import { SimulateResultRef } from './simulation';
import { MarketInput } from './inputs';

builder.mutationField('createStandingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      "Keeps a wallet's asset lent in the market with the best net yield (same as POST /v1/standing-intents); one per wallet and asset. Honours the Idempotency-Key HTTP header. Null with its error when refused (INVALID_REQUEST naming every bad field, WALLET_NOT_FOUND, STANDING_INTENT_ALREADY_EXISTS with the existing one's id).",
    args: {
      walletId: t.arg.id({ required: true, description: 'One of your wallets (svc_wallet_…).' }),
      asset: t.arg({ type: TokenAssetEnum, required: true, description: 'The token kept lent; the wallet must have a chain where it exists.' }),
      amount: t.arg.string({ description: "Token units to keep lent (decimal string, at least 0.01); absent: all of the wallet's balance." }),
      horizonDays: t.arg.int({ description: `The days a move's gain is counted over, 1-365 (default ${STANDING_DEFAULTS.horizonDays}).` }),
      minGainUsd: t.arg.float({ description: `USD a move must gain net of its costs, at least (default ${STANDING_DEFAULTS.minGainUsd}).` }),
      maxMovesPerDay: t.arg.int({ description: `Moves at most per rolling 24 hours, 1-24 (default ${STANDING_DEFAULTS.maxMovesPerDay}).` }),
    },
    admission: 'createStandingIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const fields = createStandingFields(args);
      return (
        await createStandingIntentOnce(ctx.deps, actorFor(principal), { key: ctx.idempotencyKey, request: fields }, () => createStandingCommandOf(fields))
      ).body;
    },
  }),
);

builder.mutationField('pauseStandingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      'Pauses a standing intent: nothing is decided until it is resumed (same as POST /v1/standing-intents/:id/pause). Null with its error when refused.',
    args: { id: t.arg.id({ required: true, description: 'The standing intent (svc_standing_…).' }) },
    admission: 'pauseStandingIntent',
    resolve: (_root, args, ctx) => pauseStandingIntent(ctx.deps, actorFor(requirePrincipal(ctx)), String(args.id)),
  }),
);

builder.mutationField('resumeStandingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      'Resumes a paused standing intent, decided again from the next sample (same as POST /v1/standing-intents/:id/resume). Null with its error when refused.',
    args: { id: t.arg.id({ required: true, description: 'The standing intent (svc_standing_…).' }) },
    admission: 'resumeStandingIntent',
    resolve: (_root, args, ctx) => resumeStandingIntent(ctx.deps, actorFor(requirePrincipal(ctx)), String(args.id)),
  }),
);

builder.mutationField('deleteStandingIntent', (t) =>
  t.field({
    type: 'Boolean',
    nullable: true,
    description:
      'Deletes a standing intent and its decisions (same as DELETE /v1/standing-intents/:id): true when deleted; null with its error when refused (STANDING_INTENT_NOT_FOUND).',
    args: { id: t.arg.id({ required: true, description: 'The standing intent to delete (svc_standing_…).' }) },
    admission: 'deleteStandingIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return (await deleteStandingIntent(ctx.deps, actorFor(principal), String(args.id)), true);
    },
  }),
);

builder.mutationField('simulateStandingIntent', (t) =>
  t.field({
    type: SimulateResultRef,
    nullable: true,
    description:
      'Backtests a rule over the recorded APY history through the same decision the service takes live (same as POST /v1/standing-intents/simulate); creates nothing. Costs max(5, ceil(days × markets / 10)) credits: days the window (a started day counting whole), markets those of the asset recorded in its first or last hour on the chains the plan may use (at least 1); 30 days of 4 markets cost 12, 90 days 36. One backtest per account and three per instance run at once: another is refused with BACKTEST_LIMIT_EXCEEDED (HTTP 429, details.scope account or instance, retryAfterSeconds) before anything is charged. Null with its error when refused.',
    args: {
      asset: t.arg({ type: TokenAssetEnum, required: true, description: 'The token whose markets are replayed.' }),
      amount: t.arg.string({ required: true, description: 'What the strategy keeps lent, in token units.' }),
      horizonDays: t.arg.int({ description: `The days a move's gain is counted over (default ${STANDING_DEFAULTS.horizonDays}).` }),
      minGainUsd: t.arg.float({ description: `USD a move must gain net of its costs, at least (default ${STANDING_DEFAULTS.minGainUsd}).` }),
      maxMovesPerDay: t.arg.int({ description: `Moves at most per rolling 24 hours (default ${STANDING_DEFAULTS.maxMovesPerDay}).` }),
      from: t.arg({ type: 'DateTime', description: 'Start of the replay (default 30 days before `to`).' }),
      to: t.arg({ type: 'DateTime', description: 'End of the replay (default now); at most 90 days after `from`.' }),
      start: t.arg({ type: MarketInput, description: 'The market the funds start in (default: the best at the first sample).' }),
    },
    admission: 'simulateStandingIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d);
      const body = withoutNulls({ ...args, from: iso(args.from), to: iso(args.to), start: args.start ?? undefined });
      // simulateRequest takes what the backtest costs beyond the base price its admission (the operation's prepayment, or its own reservation) pays.
      return (await simulateRequest(ctx.deps, principal, body)).result;
    },
  }),
);
