import type { Middleware } from 'koa';
import type { Logger } from '../../logger';
import type { RestState } from '../context';
import { errorBody } from '../errorBody';
import { toServiceError } from '../../domain/errors/base';
import { errorHeaders, errorStatus } from '../../http/errorStatus';

/** What a REST error answers: its status, its headers and its JSON body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: ReturnType<typeof errorBody>;
}

/**
 * The one place REST errors are shaped and logged: ServiceError → JSON;
 * anything else → masked 500, logged with the request id and path. For Koa
 * (errorHandler) and the front door's fast reads (fastKeyedReads).
 */
export function errorAnswer(logger: Logger, thrown: unknown, requestId: string, path: string): ErrorAnswer {
  const e = toServiceError(thrown);
  const status = errorStatus(e);
  if (status >= 500) {
    logger.error({ err: thrown, requestId, route: path }, 'request failed');
  }
  return { status, headers: errorHeaders(e), body: errorBody(e, requestId) };
}

/** Koa's error handler: an error thrown below it is answered as errorAnswer shapes it. */
export function errorHandler(logger: Logger): Middleware<RestState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const answer = errorAnswer(logger, thrown, ctx.state.requestId, ctx.path);
      ctx.status = answer.status;
      for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
      ctx.body = answer.body;
    }
  };
}
