import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { operation } from '../middleware/admission';
import { listAuditEvents, toAuditEventView } from '../../app/audit/listAuditEvents';

/**
 * GET /audit-events?type=&walletId=&intentId=&since=&cursor=&limit=:
 * the account's audit log, newest first, `nextCursor` null on the
 * last page. A read (the read scope, 1 credit). The query is validated by the
 * use-case: an unknown or repeated parameter is 400 INVALID_REQUEST.
 */
export function auditRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.get(
    'listAuditEvents',
    '/audit-events',
    operation(deps, 'listAuditEvents', async (ctx) => {
      const page = await listAuditEvents(deps, ctx.state.principal!, { ...ctx.query });
      ctx.body = { events: page.edges.map((e) => toAuditEventView(e.node)), nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
    }),
  );

  return router;
}
