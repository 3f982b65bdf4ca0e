import type { Middleware } from 'koa';
import { newId } from '../../domain/ids';
import type { RestState } from '../context';

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

/** `X-Request-Id` on every answer: the caller's when it is safe to echo, else a new one. */
export function requestId(): Middleware<RestState> {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = SAFE.test(given) ? given : newId('request');
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
