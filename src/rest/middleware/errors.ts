import type { Middleware } from 'koa';
import type { Logger } from '../../logger';
import type { RestState } from '../context';
import { errorBody } from '../errorBody';
import { toServiceError } from '../../domain/errors/base';

/** The one place REST errors are shaped and logged: ServiceError → JSON; anything else → masked 500. */
export function errorHandler(logger: Logger): Middleware<RestState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const e = toServiceError(thrown);
      if (e.status >= 500) {
        logger.error({ err: thrown, requestId: ctx.state.requestId, route: ctx.path }, 'request failed');
      }
      ctx.status = e.status;
      for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
      ctx.body = errorBody(e, ctx.state.requestId);
    }
  };
}
