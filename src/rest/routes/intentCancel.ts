import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { param } from '../params';
import { operation } from '../middleware/admission';
import { cancelIntent } from '../../app/intents/cancelIntent';
import { actorFor } from '../../app/audit/recordAudit';
import { pollAfterSeconds, toIntentView } from '../../app/intents/intentView';

/**
 * POST /intents/:intentId/cancel: a pending intent is
 * cancelled at once; a planning or executing one records the request and
 * stops before its next unsigned step. Answers the intent as stored after the
 * request (Retry-After while it is not final); 409 INTENT_NOT_CANCELLABLE
 * once it completed or failed. A write (1 credit).
 */
export function intentCancelRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.post(
    'cancelIntent',
    '/intents/:intentId/cancel',
    operation(deps, 'cancelIntent', async (ctx) => {
      const view = toIntentView(await cancelIntent(deps, actorFor(ctx.state.principal!), param(ctx, 'intentId')));
      const seconds = pollAfterSeconds(view);
      if (seconds !== null) ctx.set('Retry-After', String(seconds));
      ctx.body = view;
    }),
  );

  return router;
}
