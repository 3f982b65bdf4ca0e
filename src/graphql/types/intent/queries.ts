import { builder } from '../../builder';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from '../connection';
import { requirePrincipal, withoutNulls } from '../../resolverHelpers';
import { getIntent } from '../../../app/intents/getIntent';
import { listIntents } from '../../../app/intents/listIntents';
import type { Intent } from '../../../domain/intent';
import { IntentRef, IntentStatusEnum } from './type';

const IntentConnectionRef = connectionTypes<Intent, Intent>(
  'Intent',
  IntentRef,
  { edge: 'An intent', one: 'intent', many: 'intents', within: 'list', connection: "A page of a wallet's intents, newest first." },
  (i) => i,
);

builder.queryField('intent', (t) =>
  t.field({
    type: IntentRef,
    nullable: true,
    description:
      "One of the caller's intents (same as GET /v1/intents/:intentId); null with an INTENT_NOT_FOUND error when there is none (another account's answers the same).",
    args: { id: t.arg.id({ required: true, description: 'The intent id (intent_…).' }) },
    admission: 'getIntent',
    resolve: (_root, args, ctx) => getIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.queryField('intents', (t) =>
  t.field({
    type: IntentConnectionRef,
    nullable: true,
    description:
      "A wallet's intents, newest first (same as GET /v1/intents?walletId=), by Relay cursors both ways; null with a WALLET_NOT_FOUND error when the wallet is not the caller's.",
    args: {
      walletId: t.arg.id({ required: true, description: 'The wallet whose intents to list (svc_wallet_…).' }),
      status: t.arg({ type: IntentStatusEnum, description: 'Only intents in this status.' }),
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
    },
    admission: 'listIntents',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const filters = withoutNulls({ walletId: String(args.walletId), status: args.status });
      return paginate(args, (page) => listIntents(ctx.deps, principal, { ...filters, ...page }), ctx);
    },
  }),
);
