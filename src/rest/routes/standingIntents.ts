import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { param, queryValue } from '../params';
import { operation } from '../middleware/admission';
import {
  createStandingIntentOnce,
  deleteStandingIntent,
  getStandingIntent,
  listStandingDecisions,
  listStandingIntents,
  pauseStandingIntent,
  resumeStandingIntent,
} from '../../app/standing/manageStanding';
import { simulateRequest } from '../../app/standing/simulateRequest';
import { getStandingEarnings } from '../../app/standing/standingEarnings';
import { actorFor } from '../../app/audit/recordAudit';
import { parseInput } from '../../domain/schemas/parse';
import { createStandingSchema } from '../../domain/schemas/standing';

/** Standing intents (`/standing-intents`), their decisions, and the backtest. */
export function standingIntentRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.post(
    'createStandingIntent',
    '/standing-intents',
    operation(deps, 'createStandingIntent', async (ctx) => {
      const body = ctx.state.body;
      const idempotency = { key: ctx.get('Idempotency-Key') || undefined, request: body };
      const result = await createStandingIntentOnce(deps, actorFor(ctx.state.principal!), idempotency, () => parseInput(createStandingSchema, body));
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
      ctx.status = result.status;
      ctx.body = result.body;
    }),
  );

  router.get(
    'listStandingIntents',
    '/standing-intents',
    operation(deps, 'listStandingIntents', async (ctx) => {
      const query = Object.fromEntries(Object.keys(ctx.query).map((k) => [k, queryValue(ctx.query[k])]));
      const page = await listStandingIntents(deps, ctx.state.principal!, query);
      ctx.body = { standingIntents: page.edges.map((e) => e.node), pageInfo: page.pageInfo };
    }),
  );

  router.post(
    'simulateStandingIntent',
    '/standing-intents/simulate',
    operation(deps, 'simulateStandingIntent', async (ctx) => {
      const answer = await simulateRequest(deps, ctx.state.principal!, ctx.state.body);
      // the backtest charges beyond its base price: the counter after that is the one X-Credits-Remaining reports
      if (answer.creditsUsed !== null) ctx.state.creditsUsed = answer.creditsUsed;
      ctx.body = answer.result;
    }),
  );

  router.get(
    'getStandingIntent',
    '/standing-intents/:standingIntentId',
    operation(deps, 'getStandingIntent', async (ctx) => {
      ctx.body = await getStandingIntent(deps, ctx.state.principal!, param(ctx, 'standingIntentId'));
    }),
  );

  router.post(
    'pauseStandingIntent',
    '/standing-intents/:standingIntentId/pause',
    operation(deps, 'pauseStandingIntent', async (ctx) => {
      ctx.body = await pauseStandingIntent(deps, actorFor(ctx.state.principal!), param(ctx, 'standingIntentId'));
    }),
  );

  router.post(
    'resumeStandingIntent',
    '/standing-intents/:standingIntentId/resume',
    operation(deps, 'resumeStandingIntent', async (ctx) => {
      ctx.body = await resumeStandingIntent(deps, actorFor(ctx.state.principal!), param(ctx, 'standingIntentId'));
    }),
  );

  router.delete(
    'deleteStandingIntent',
    '/standing-intents/:standingIntentId',
    operation(deps, 'deleteStandingIntent', async (ctx) => {
      await deleteStandingIntent(deps, actorFor(ctx.state.principal!), param(ctx, 'standingIntentId'));
      ctx.status = 204;
    }),
  );

  router.get(
    'listStandingDecisions',
    '/standing-intents/:standingIntentId/decisions',
    operation(deps, 'listStandingDecisions', async (ctx) => {
      const query = Object.fromEntries(Object.keys(ctx.query).map((k) => [k, queryValue(ctx.query[k])]));
      const page = await listStandingDecisions(deps, ctx.state.principal!, param(ctx, 'standingIntentId'), query);
      ctx.body = { decisions: page.edges.map((e) => e.node), pageInfo: page.pageInfo };
    }),
  );

  router.get(
    'getStandingEarnings',
    '/standing-intents/:standingIntentId/earnings',
    operation(deps, 'getStandingEarnings', async (ctx) => {
      ctx.body = await getStandingEarnings(deps, ctx.state.principal!, param(ctx, 'standingIntentId'));
    }),
  );

  return router;
}
