import { builder } from '../../builder';
import { requirePrincipal } from '../../resolverHelpers';
import { watchDecisions } from '../../../app/standing/watchDecisions';
import type { DecisionView } from '../../../app/standing/standingView';
import { StandingDecisionRef } from './decisions';

builder.subscriptionField('standingIntentDecisions', (t) =>
  t.field({
    type: StandingDecisionRef,
    description:
      "A standing intent's decisions from now on, each once it is recorded (again if a move settles differently: its intent, or a refusal), whichever instance took it. Costs 1 credit per subscription.",
    args: {
      standingIntentId: t.arg.id({
        required: true,
        description: "The standing intent to follow (svc_standing_…); STANDING_INTENT_NOT_FOUND unless it is one of your account's.",
      }),
    },
    admission: 'listStandingDecisions',
    subscribe: (_root, args, ctx) => watchDecisions(ctx.deps, requirePrincipal(ctx), String(args.standingIntentId)),
    resolve: (decision: DecisionView) => decision,
  }),
);
