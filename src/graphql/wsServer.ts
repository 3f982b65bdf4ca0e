import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { execute, type GraphQLSchema } from 'graphql';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import type { Principal } from '../app/accounts/principal';
import type { GraphQLContext } from './context';
import { admitRequest, authorizeOperation } from '../app/accounts/admitRequest';
import { createSharedSubscribe } from './sharedSubscriptions';
import { isServiceError } from '../domain/errors/base';
import { newId } from '../domain/ids';
import { maskError } from './errors';

type ConnectionExtra = {
  principal?: Principal;
  requestId?: string;
};

/** Largest WebSocket message accepted (a subscription document, not a payload channel). */
const MAX_PAYLOAD = 64 * 1024;

/**
 * graphql-ws on `/graphql` (same path as HTTP). The connection is admitted once
 * with `connectionParams.authorization` (key check + one request in the rate
 * window); an unauthenticated socket is closed with 4403 before any operation.
 */
export function attachGraphQLWebSocket(o: { server: Server; schema: GraphQLSchema; deps: AppDeps; logger: Logger }): { close(): Promise<void> } {
  const wss = new WebSocketServer({ server: o.server, path: '/graphql', maxPayload: MAX_PAYLOAD });
  const cleanup = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      schema: o.schema,
      execute,
      subscribe: createSharedSubscribe({
        // Shared only within one account: resolvers check ownership once per group.
        keyOf: (args) => {
          const ctx = args.contextValue as GraphQLContext;
          const body = args.document.loc?.source.body;
          if (!ctx.principal || !body) return null;
          return `${ctx.principal.account.id}\u0000${args.operationName ?? ''}\u0000${body}\u0000${JSON.stringify(args.variableValues ?? {})}`;
        },
        onJoin: async (args) => {
          const ctx = args.contextValue as GraphQLContext;
          if (ctx.principal) await authorizeOperation(o.deps, ctx.principal, 'watchIntent');
        },
      }),
      connectionInitWaitTimeout: 5_000,
      onConnect: async (ctx) => {
        const auth = ctx.connectionParams?.authorization;
        try {
          const { principal } = await admitRequest(o.deps, typeof auth === 'string' ? auth : undefined);
          ctx.extra.principal = principal;
          ctx.extra.requestId = newId('request');
          return true;
        } catch (e) {
          if (!isServiceError(e)) o.logger.error({ err: e }, 'websocket admission failed');
          return false;
        }
      },
      // Same error shape as HTTP: extensions.code equal to the REST code, internals masked.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => maskError(e, () => undefined)) } : result,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => maskError(e, () => undefined)),
      context: (ctx): GraphQLContext => ({ deps: o.deps, principal: ctx.extra.principal ?? null, requestId: ctx.extra.requestId ?? 'ws' }),
    },
    wss,
  );
  return {
    async close() {
      for (const client of wss.clients) client.terminate();
      await cleanup.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
