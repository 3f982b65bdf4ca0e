import { builder } from '../builder';
import { IntentRef } from './intent';
import { requirePrincipal } from '../resolverHelpers';
import { authorizeOperation } from '../../app/accounts/admitRequest';
import { watchIntent } from '../../app/intents/watchIntent';
import type { Intent } from '../../domain/intent';

builder.subscriptionField('intentUpdated', (t) =>
  t.field({
    type: IntentRef,
    description:
      "An intent's progress: the current snapshot first, then every persisted change in order; completes after the final state. Costs 1 credit per subscription.",
    args: { id: t.arg.id({ required: true, description: "The intent to follow (intent_…); INTENT_NOT_FOUND unless it is one of your account's." }) },
    subscribe: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const charge = await authorizeOperation(ctx.deps, principal, 'watchIntent');
      try {
        return await watchIntent(ctx.deps, principal, String(args.id));
      } catch (e) {
        await charge.refund();
        throw e;
      }
    },
    resolve: (intent: Intent) => intent,
  }),
);
