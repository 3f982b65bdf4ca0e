import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { createRouter, guardEveryRoute } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { param } from '../params';
import { parseInput } from '../../domain/schemas/parse';
import { createAccountSchema, createKeySchema } from '../../domain/schemas/admin';
import { createAccount, issueApiKey } from '../../app/accounts/createAccount';
import { revokeApiKey } from '../../app/accounts/revokeApiKey';
import { getAccountUsage } from '../../app/accounts/getUsage';
import { checkAdminToken } from '../../app/accounts/adminAuth';
import { ServiceError } from '../../domain/errors/base';
import { ADMIN_ACTOR } from '../../app/audit/recordAudit';

/**
 * The admin API of docs/operations.md (mounted only when ADMIN_TOKEN is set; costs no
 * credits). The token check, then the body parser, run in front of every
 * admin route's handler (see guardEveryRoute): no admin handler runs without it.
 */
export function adminRoutes(deps: AppDeps, adminToken: string, bodyParser: Middleware<RestState>, extra: Router<RestState>[] = []): Router<RestState> {
  const router = createRouter<RestState>({ prefix: '/admin' });

  router.post('/accounts', async (ctx) => {
    const p = parseInput(createAccountSchema, ctx.state.body);
    const { account, apiKey } = await createAccount(deps, { ...p, actor: ADMIN_ACTOR });
    ctx.status = 201;
    ctx.body = { account, apiKey };
  });

  router.post('/accounts/:id/keys', async (ctx) => {
    const p = parseInput(createKeySchema, ctx.state.body);
    if (!(await deps.store.accounts.get(param(ctx, 'id')))) {
      throw new ServiceError('NOT_FOUND', 'Account not found', { details: { accountId: param(ctx, 'id') } });
    }
    ctx.status = 201;
    ctx.body = await issueApiKey(deps, { accountId: param(ctx, 'id'), name: p.name, scopes: p.scopes, actor: ADMIN_ACTOR });
  });

  router.delete('/keys/:keyId', async (ctx) => {
    await revokeApiKey(deps, param(ctx, 'keyId'), ADMIN_ACTOR);
    ctx.status = 204;
  });

  router.get('/accounts/:id/usage', async (ctx) => {
    ctx.body = await getAccountUsage(deps, param(ctx, 'id'));
  });

  for (const r of extra) router.use(r.routes());
  const requireAdminToken: Middleware<RestState> = async (ctx, next) => {
    checkAdminToken(adminToken, ctx.get('Authorization') || undefined);
    await next();
  };
  return guardEveryRoute(router, requireAdminToken, bodyParser);
}
