import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLContext } from './context';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import { buildSchema } from './schema';
import { maskError } from './errors';
import { disableIntrospection, limitDepth } from './plugins';

/** Deepest selection allowed (the schema itself nests ≤ 6). */
export const MAX_QUERY_DEPTH = 10;

export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  principal: GraphQLContext['principal'];
  requestId: string;
}

export type GraphQLServer = YogaServerInstance<ServerContext, GraphQLContext>;

/** graphql-yoga over the Pothos schema; GraphiQL and introspection outside production only. */
export function createGraphQLServer(o: { deps: AppDeps; logger: Logger; production: boolean }): GraphQLServer {
  return createYoga<ServerContext, GraphQLContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: o.production ? false : { title: 'Wallet & Intent API', defaultQuery: '{ wallet(userId: "alice") { id address chains } }' },
    landingPage: false,
    logging: false,
    batching: false,
    maskedErrors: { maskError: (error) => maskError(error, () => undefined) },
    context: ({ principal, requestId, request }) => ({
      deps: o.deps,
      principal,
      requestId,
      idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
    }),
    plugins: [limitDepth(MAX_QUERY_DEPTH), ...(o.production ? [disableIntrospection()] : [])],
  });
}
