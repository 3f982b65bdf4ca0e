import { builder } from '../../builder';
import { requirePrincipal, withoutNulls } from '../../resolverHelpers';
import { submitIntent } from '../../../app/intents/submitIntent';
import { getIntent } from '../../../app/intents/getIntent';
import { cancelIntent } from '../../../app/intents/cancelIntent';
import { IntentRef } from './type';
import { CreateIntentInput } from './inputs';

builder.mutationField('createIntent', (t) =>
  t.field({
    type: IntentRef,
    nullable: true,
    description:
      'Creates a lend, withdraw, bridge or rebalance intent (same as POST /v1/intents). Honours the Idempotency-Key HTTP header. Null with its error when refused (e.g. INVALID_REQUEST, POLICY_VIOLATION).',
    args: { input: t.arg({ type: CreateIntentInput, required: true, description: 'The intent to create.' }) },
    admission: 'createIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const { sources, ...rest } = args.input;
      const body = withoutNulls({
        ...rest,
        walletId: String(args.input.walletId),
        // an absent protocol is a source of idle funds, as REST spells it null
        sources: sources?.map((src) => ({ ...src, protocol: src.protocol ?? null })),
      });
      const result = await submitIntent(ctx.deps, principal, body, ctx.idempotencyKey);
      // the record, not the REST view: GraphQL keeps amounts as exact decimal strings
      return getIntent(ctx.deps, principal, result.body.id);
    },
  }),
);

builder.mutationField('cancelIntent', (t) =>
  t.field({
    type: IntentRef,
    nullable: true,
    description:
      "Cancels an intent (same as POST /v1/intents/:intentId/cancel): a PENDING one is CANCELLED at once; a PLANNING or EXECUTING one records the request (cancelRequestedAt) and stops before its next step that has nothing signed, ending CANCELLED with `results` saying what completed (a step with a signed transaction always runs to its end; intentUpdated carries the change). A CANCELLED one is answered as it is. Null with INTENT_NOT_CANCELLABLE when it is COMPLETED or FAILED, INTENT_NOT_FOUND when it is not the caller's.",
    args: { id: t.arg.id({ required: true, description: 'The intent id (intent_…).' }) },
    admission: 'cancelIntent',
    resolve: (_root, args, ctx) => cancelIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);
