import { getStandingEarnings, type StandingEarningsView } from '../../../app/standing/standingEarnings';
import { builder } from '../../builder';
import { TokenAssetEnum, describedValues } from '../enums';
import { PAGE_ARG_DESCRIPTIONS, paginate } from '../connection';
import { NodeRef } from '../node';
import { requirePrincipal } from '../../resolverHelpers';
import { listStandingDecisions } from '../../../app/standing/manageStanding';
import type { StandingIntentView } from '../../../app/standing/standingView';
import type { StandingIntentStatus } from '../../../domain/standingIntent';
import { DecisionConnectionRef } from './decisions';

/**
 * Standing intents over GraphQL: the same use-cases as /v1/standing-intents.
 * A StandingIntent is a Node (svc_standing_…); its `decisions` connection is
 * part of the read of the standing intent (no credit of its own, like a
 * wallet's policy).
 */

const StatusEnum = builder.enumType('StandingIntentStatus', {
  description: 'Whether a standing intent is decided on.',
  values: describedValues<StandingIntentStatus>({
    active: 'Decided on every rate sample and when funds arrive on the wallet.',
    paused: 'Nothing is decided until it is resumed.',
  }),
});

const StandingEarningsRef = builder.objectRef<StandingEarningsView>('StandingIntentEarnings').implement({
  description: "What a standing intent's asset earned on the wallet, and what its moves cost (same as GET /v1/standing-intents/:id/earnings).",
  fields: (t) => ({
    principal: t.exposeString('principal', {
      nullable: true,
      description: 'What the wallet put into its positions of the asset and kept there, token units; null: no position the service supplied.',
    }),
    earned: t.exposeString('earned', {
      nullable: true,
      description:
        "Interest the asset earned on the wallet in every market it was in (the protocols' index growth of what the service supplied; moves carry it over, withdraws realise it), token units, exact.",
    }),
    external: t.string({
      nullable: true,
      description: "What others supplied to the wallet's positions of the asset (not interest), token units; null when a position's ledger has no index.",
      resolve: (e) => e.external ?? null,
    }),
    moves: t.exposeInt('moves', { description: "Rebalance intents of the wallet's asset since the standing intent was created that spent anything." }),
    movesCostUsd: t.exposeFloat('movesCostUsd', { description: 'Their gas and CCTP fees, USD.' }),
    earnedUsd: t.exposeFloat('earnedUsd', { nullable: true, description: '`earned` in USD (stablecoins 1:1; null for other assets).' }),
    netUsd: t.exposeFloat('netUsd', { nullable: true, description: 'earnedUsd − movesCostUsd: what the strategy earned net of its costs.' }),
  }),
});

export const StandingIntentRef = builder.objectRef<StandingIntentView>('StandingIntent').implement({
  description:
    "A standing intent (svc_standing_…): keeps a wallet's asset lent in the market with the best net yield, moving it when the gain beats every cost (same resource as /v1/standing-intents).",
  interfaces: [NodeRef],
  fields: (t) => ({
    walletId: t.exposeID('walletId', { description: 'The wallet whose funds it keeps lent.' }),
    asset: t.field({ type: TokenAssetEnum, description: 'The token kept lent.', resolve: (s) => s.asset }),
    amount: t.exposeString('amount', { nullable: true, description: "Token units kept lent; null: all of the wallet's balance of the asset." }),
    horizonDays: t.exposeInt('horizonDays', { description: "The days a move's extra yield is counted over." }),
    minGainUsd: t.exposeFloat('minGainUsd', { description: 'USD a move must gain over the horizon, net of its costs, at least.' }),
    maxMovesPerDay: t.exposeInt('maxMovesPerDay', { description: 'Moves at most per rolling 24 hours.' }),
    status: t.field({ type: StatusEnum, description: 'Active or paused.', resolve: (s) => s.status }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last paused, resumed or created.' }),
    version: t.exposeInt('version', { description: '+1 on every change (pause, resume, each decision recorded on it).' }),
    lastDecisionAt: t.expose('lastDecisionAt', {
      type: 'DateTime',
      nullable: true,
      description: 'The sample minute of its last decision; null before the first.',
    }),
    lastIntentId: t.exposeID('lastIntentId', { nullable: true, description: 'The rebalance intent of its last move; null before the first.' }),
    earnings: t.field({
      type: StandingEarningsRef,
      description:
        "What the wallet's positions of the asset earned and what its moves cost (reads the positions on chain); part of the read of the standing intent.",
      resolve: (s, _args, ctx) => getStandingEarnings(ctx.deps, requirePrincipal(ctx), s.id),
    }),
    decisions: t.field({
      type: DecisionConnectionRef,
      description: 'Its decisions, newest first, by Relay cursors both ways (kept 90 days); part of the read of the standing intent.',
      args: {
        first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
        after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
        last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
        before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
      },
      resolve: (s, args, ctx) => {
        const principal = requirePrincipal(ctx);
        return paginate(args, (page) => listStandingDecisions(ctx.deps, principal, s.id, page), ctx);
      },
    }),
  }),
});
