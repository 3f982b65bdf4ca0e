import { builder } from '../../builder';
import { requirePrincipal } from '../../resolverHelpers';
import { createIntentOnce } from '../../../app/intents/createIntentOnce';
import { actorFor } from '../../../app/audit/recordAudit';
import { createIntentCommandOf, createIntentFields } from '../../commands/intent';
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
      const fields = createIntentFields(args.input);
      const created = await createIntentOnce(ctx.deps, actorFor(principal), { key: ctx.idempotencyKey, request: fields }, () => createIntentCommandOf(fields));
      // the domain's intent, not the REST view (GraphQL keeps amounts as exact decimal strings); a replay answers the first one as it is now
      return created.intent ?? getIntent(ctx.deps, principal, created.body.id);
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
    resolve: (_root, args, ctx) => cancelIntent(ctx.deps, actorFor(requirePrincipal(ctx)), String(args.id)),
  }),
);
