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
