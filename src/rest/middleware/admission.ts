import type { Middleware } from 'koa';
import type { AppDeps } from '../../app/deps';
import type { RestState, RestContext } from '../context';
import type { Operation } from '../../domain/plans';
import { admitRequest, authorizeOperation } from '../../app/accounts/admitRequest';
import { rateHeaders } from '../../app/accounts/rateLimit';

/** Authenticates the key and counts the request; the rate headers go on every answer from here on. */
export function admission(deps: AppDeps): Middleware<RestState> {
  return async (ctx, next) => {
    const { principal, rate } = await admitRequest(deps, ctx.get('Authorization') || undefined);
    ctx.state.principal = principal;
    ctx.set(rateHeaders(rate));
    await next();
  };
}

/** Wraps a handler as one billable operation: scope check, credits reserved, refunded unless the answer is 2xx. */
export function operation(deps: AppDeps, op: Operation, handler: (ctx: RestContext) => Promise<void>) {
  return async (ctx: RestContext): Promise<void> => {
    const principal = ctx.state.principal;
    if (!principal) throw new Error('operation() used without admission()');
    const charge = await authorizeOperation(deps, principal, op);
    let ok = false;
    try {
      await handler(ctx);
      ok = ctx.status >= 200 && ctx.status < 300;
    } finally {
      if (!ok) await charge.refund();
    }
  };
}
