import { builder } from '../../builder';
import { IntentRef } from './type';
import { requirePrincipal } from '../../resolverHelpers';
import { watchIntent } from '../../../app/intents/watchIntent';
import type { Intent } from '../../../domain/intent';

builder.subscriptionField('intentUpdated', (t) =>
  t.field({
    type: IntentRef,
    description:
      "An intent's progress: the current snapshot first, then every persisted change in order; completes after the final state. Costs 1 credit per subscription.",
    args: { id: t.arg.id({ required: true, description: "The intent to follow (intent_…); INTENT_NOT_FOUND unless it is one of your account's." }) },
    admission: 'watchIntent',
    subscribe: (_root, args, ctx) => watchIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
    resolve: (intent: Intent) => intent,
  }),
);
