import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { operation } from '../middleware/admission';
import { getUsage, toUsageView } from '../../app/accounts/getUsage';

/**
 * GET /usage: the caller's account as its key holders may
 * see it — plan, credits this month, the current rate window, wallets. Free
 * (0 credits, so it never counts against the credits it reports) but a
 * request like any other: admitted, counted in the rate window, the read
 * scope. The same use-case as the dashboard's usage and GraphQL `usage`.
 */
export function usageRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.get(
    '/usage',
    operation(deps, 'getUsage', async (ctx) => {
      const usage = await getUsage(deps, ctx.state.principal!.account);
      // X-Credits-Remaining from the same read as the body: the two agree, and the header needs no read of its own.
      ctx.state.creditsUsed = usage.credits.used;
      ctx.body = toUsageView(usage);
    }),
  );

  return router;
}
