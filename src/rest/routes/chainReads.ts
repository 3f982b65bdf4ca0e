import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { operation } from '../middleware/admission';
import { param } from '../params';
import { parseInput } from '../../domain/schemas/parse';
import { yieldsQuerySchema } from '../../domain/schemas/yields';
import { fundDemoSchema } from '../../domain/schemas/funding';
import { getBalances } from '../../app/balances/getBalances';
import { getYields, type YieldReport } from '../../app/yields/getYields';
import type { Principal } from '../../app/accounts/principal';
import type { FastRead } from '../fastKeyedReads';
import { yieldsAnswerCache } from '../../app/yields/yieldsAnswerCache';
import { fundDemoWallet } from '../../app/funding/fundDemoWallet';
import { yieldsParams } from '../../app/yields/yieldsParams';

/** GET /yields: the report for the query's filters (and its optional net-return ranking). */
async function yieldsAnswer(deps: AppDeps, principal: Principal, query: Record<string, unknown>): Promise<YieldReport> {
  return getYields(deps, principal, yieldsParams(parseInput(yieldsQuerySchema, { ...query })));
}

/**
 * The reads of this file the front door answers before Koa when the URL is
 * exactly the route's path (no query string) and a key is given
 * (fastKeyedReads): GET /v1/yields, the same answer as the route's handler
 * with an empty query, serialized once per rates snapshot (yieldsAnswerCache).
 */
export function chainFastReads(deps: AppDeps): FastRead[] {
  return [{ path: '/v1/yields', operation: 'getYields', answer: yieldsAnswerCache(deps, (principal) => yieldsAnswer(deps, principal, {})) }];
}

/** GET /balances/:walletId, GET /yields, POST /demo/fund (the API's "Endpoints"). */
export function chainRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.get(
    'getBalances',
    '/balances/:walletId',
    operation(deps, 'getBalances', async (ctx) => {
      ctx.body = await getBalances(deps, ctx.state.principal!, param(ctx, 'walletId'));
    }),
  );

  router.get(
    'getYields',
    '/yields',
    operation(deps, 'getYields', async (ctx) => {
      ctx.body = await yieldsAnswer(deps, ctx.state.principal!, ctx.query);
    }),
  );

  router.post(
    'fundDemo',
    '/demo/fund',
    operation(deps, 'fundDemo', async (ctx) => {
      ctx.status = 202;
      ctx.body = await fundDemoWallet(deps, ctx.state.principal!, parseInput(fundDemoSchema, ctx.state.body));
    }),
  );

  return router;
}
