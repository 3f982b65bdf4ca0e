import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { operation } from '../middleware/admission';
import { getYieldHistory } from '../../app/yields/getYieldHistory';
import type { YieldHistoryParams } from '../../domain/schemas/yieldHistory';

/**
 * GET /yields/history?chain=&protocol=&asset=&from=&to=&bucket=:
 * the sampled APY of each market in buckets with min, max and mean.
 * A read (1 credit). The query is validated by the use-case: an unknown or
 * bad parameter is 400 INVALID_REQUEST naming each one.
 */
export function yieldHistoryRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.get(
    'getYieldHistory',
    '/yields/history',
    operation(deps, 'getYieldHistory', async (ctx) => {
      ctx.body = await getYieldHistory(deps, ctx.state.principal!, { ...ctx.query } as YieldHistoryParams);
    }),
  );

  return router;
}
