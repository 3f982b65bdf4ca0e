import type { RestContext } from './context';

/** A path parameter the route pattern guarantees (the router types them as optional). */
export function param(ctx: RestContext, name: string): string {
  return ctx.params[name] ?? '';
}
