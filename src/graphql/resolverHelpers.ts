import type { GraphQLContext } from './context';
import type { Principal } from '../app/accounts/principal';
import { unauthorized } from '../domain/errors/auth';

/** The caller admitted by the dispatcher; resolvers never run unauthenticated, this is the type guard. */
export function requirePrincipal(ctx: GraphQLContext): Principal {
  if (!ctx.principal) throw unauthorized();
  return ctx.principal;
}

/** GraphQL passes explicit nulls for optional inputs; the shared zod schemas expect absent fields. */
export function withoutNulls<T extends object>(input: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * One read per operation for the same field and arguments, dataloader-style:
 * `{ a: yields { … } b: yields { … } }` reads the chains once. Each alias
 * still pays its own credits (they are priced per root field, before
 * execution); a failed read is not kept, so the next alias tries again.
 */
export function once<T>(ctx: GraphQLContext, field: string, args: unknown, read: () => Promise<T>): Promise<T> {
  ctx.reads ??= new Map();
  const key = `${field}\u0000${JSON.stringify(args)}`;
  const hit = ctx.reads.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const p = read();
  ctx.reads.set(key, p);
  p.catch(() => ctx.reads?.delete(key));
  return p;
}
