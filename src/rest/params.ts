import type { RestContext } from './context';

/** A path parameter the route pattern guarantees (the router types them as optional). */
export function param(ctx: RestContext, name: string): string {
  return ctx.params[name] ?? '';
}

/** A query-string value: the first when repeated, absent when missing. */
export const queryValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
