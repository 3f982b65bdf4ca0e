import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestContext, RestState } from '../context';
import { param, queryValue } from '../params';
import { operation } from '../middleware/admission';
import { createIntentOnce } from '../../app/intents/createIntentOnce';
import { actorFor } from '../../app/audit/recordAudit';
import { parseCreateIntent } from '../../domain/schemas/intent';
import { previewIntent } from '../../app/intents/previewIntent';
import { getIntent } from '../../app/intents/getIntent';
import { listIntents } from '../../app/intents/listIntents';
import { pollAfterSeconds, toIntentView, type IntentView } from '../../app/intents/intentView';

/** An intent answer that is not final tells the client when to look again (Retry-After). */
function pollHint(ctx: RestContext, intent: IntentView): void {
  const seconds = pollAfterSeconds(intent);
  if (seconds !== null) ctx.set('Retry-After', String(seconds));
}

/** POST /intents, GET /intents/:intentId and GET /intents?walletId= (the API's "Endpoints"; the list is an addition to the original routes). */
export function intentRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.post(
    'createIntent',
    '/intents',
    operation(deps, 'createIntent', async (ctx) => {
      const body = ctx.state.body;
      const idempotency = { key: ctx.get('Idempotency-Key') || undefined, request: body };
      const result = await createIntentOnce(deps, actorFor(ctx.state.principal!), idempotency, () => parseCreateIntent(body));
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
      pollHint(ctx, result.body);
      ctx.status = result.status;
      ctx.body = result.body;
    }),
  );

  router.post(
    'previewIntent',
    '/intents/preview',
    operation(deps, 'previewIntent', async (ctx) => {
      ctx.body = await previewIntent(deps, ctx.state.principal!, parseCreateIntent(ctx.state.body));
    }),
  );

  router.get(
    'getIntent',
    '/intents/:intentId',
    operation(deps, 'getIntent', async (ctx) => {
      const view = toIntentView(await getIntent(deps, ctx.state.principal!, param(ctx, 'intentId')));
      pollHint(ctx, view);
      ctx.body = view;
    }),
  );

  router.get(
    'listIntents',
    '/intents',
    operation(deps, 'listIntents', async (ctx) => {
      const params = Object.fromEntries(
        ['walletId', 'status', 'first', 'after'].flatMap((k) => {
          const v = queryValue(ctx.query[k]);
          return v === undefined ? [] : [[k, v]];
        }),
      );
      const page = await listIntents(deps, ctx.state.principal!, params);
      ctx.body = { intents: page.edges.map((e) => toIntentView(e.node)), pageInfo: page.pageInfo };
    }),
  );

  return router;
}
