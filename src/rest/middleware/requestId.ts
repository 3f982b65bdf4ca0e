import type { Middleware } from 'koa';
import { requestIdFor } from '../../http/requestId';
import type { RestState } from '../context';

/** `X-Request-Id` on every answer: the caller's when it is safe to echo, else a new one. */
export function requestId(): Middleware<RestState> {
  return async (ctx, next) => {
    ctx.state.requestId = requestIdFor(ctx.get('X-Request-Id'));
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
