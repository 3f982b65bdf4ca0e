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
import { getYields } from '../../app/yields/getYields';
import { fundDemoWallet } from '../../app/funding/fundDemoWallet';
import type { TokenAsset, ChainName } from '../../domain/chains';

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
      const q = parseInput(yieldsQuerySchema, { ...ctx.query });
      ctx.body = await getYields(deps, ctx.state.principal!, {
        asset: q.asset as TokenAsset | undefined,
        chain: q.chain as ChainName | undefined,
        ...(q.optimize !== undefined && { optimize: q.optimize }),
        ...(q.walletId !== undefined && { walletId: q.walletId }),
        ...(q.amount !== undefined && { amount: q.amount }),
        ...(q.horizonDays !== undefined && { horizonDays: Number(q.horizonDays) }),
      });
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
