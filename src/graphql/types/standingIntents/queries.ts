import { builder } from '../../builder';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from '../connection';
import { requirePrincipal } from '../../resolverHelpers';
import { getStandingIntent, listStandingIntents } from '../../../app/standing/manageStanding';
import type { StandingIntentView } from '../../../app/standing/standingView';
import { StandingIntentRef } from './type';

const StandingConnectionRef = connectionTypes<StandingIntentView, StandingIntentView>(
  'StandingIntent',
  StandingIntentRef,
  {
    edge: 'A standing intent',
    one: 'standing intent',
    many: 'standing intents',
    within: 'list',
    connection: "A page of the account's standing intents, newest first.",
  },
  (s) => s,
);

builder.queryField('standingIntents', (t) =>
  t.field({
    type: StandingConnectionRef,
    nullable: true,
    description:
      "The account's standing intents, newest first (same as GET /v1/standing-intents), by Relay cursors both ways; null with its error when refused.",
    args: {
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
    },
    admission: 'listStandingIntents',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return paginate(args, (page) => listStandingIntents(ctx.deps, principal, page), ctx);
    },
  }),
);

builder.queryField('standingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      "One of the account's standing intents (same as GET /v1/standing-intents/:standingIntentId); null with a STANDING_INTENT_NOT_FOUND error when there is none (another account's answers the same).",
    args: { id: t.arg.id({ required: true, description: 'The standing intent id (svc_standing_…).' }) },
    admission: 'getStandingIntent',
    resolve: (_root, args, ctx) => getStandingIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);
