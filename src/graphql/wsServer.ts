import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError, execute, getOperationAST, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import { credentialOf, type Principal } from '../app/accounts/principal';
import type { GraphQLContext } from './context';
import { admitRequest, authorizeOperation, type Admission } from '../app/accounts/admitRequest';
import { admitSession } from '../app/dashboard/sessions';
import { sameOrigin, sessionCookieOf } from '../http/sessionCookie';
import { createSharedSubscribe } from './sharedSubscriptions';
import { subscriptionAdmission } from './admission';
import { isServiceError, toServiceError } from '../domain/errors/base';
import { newId } from '../domain/ids';
import { maskError, toGraphQLError } from './errors';
import { checkRequestObjects, operationRules, parseAndValidate } from './operationLimits';
import { chargeInto, costCeilingRefusal } from './operationCost';
import { openSubscription, quotaOf, type StreamQuotas, type SubscriptionSlot } from './streamQuotas';
import { startedStream, type StreamObserver } from './streamMetrics';

type ConnectionExtra = {
  principal?: Principal;
  /** The account whose socket quota this connection holds, once admitted. */
  quotaAccount?: string;
  /** This socket's live subscriptions by id, each holding a subscription slot of the account. */
  subscriptions?: Map<string, SubscriptionSlot>;
  /** The connection's credentials: every operation is admitted with them again. */
  authorization?: string;
  /** Or the dashboard's session cookie, sent with the upgrade request. */
  sessionCookie?: string;
  stopWatching?: () => void;
};

/** Largest WebSocket message accepted (a subscription document, not a payload channel). */
const MAX_PAYLOAD = 64 * 1024;

/** graphql-ws close codes: 4400 Bad Request (an invalid message); 4403 Forbidden (the key is not, or no longer, good); 4429 for an exhausted rate window. */
const CLOSE_FORBIDDEN = 4403;
const CLOSE_BAD_REQUEST = 4400;
const CLOSE_RATE_LIMITED = 4429;

/** Message types only a server sends (graphql-transport-ws). */
const SERVER_MESSAGE_TYPE = /"type"\s*:\s*"(connection_ack|next|error)"/;

/**
 * graphql-ws answers a client that sends a server's message type
 * (`connection_ack`, `next`, `error`) by closing with 4500 Internal Server
 * Error, and logs it as its own failure: it is the client's protocol error,
 * 4400 Bad Request like any other invalid message. Each socket's `message`
 * listeners (graphql-ws adds its own when the socket connects, after this
 * listener ran) are wrapped so such a message is refused before graphql-ws
 * sees it.
 */
function refuseServerMessageTypes(wss: WebSocketServer): void {
  wss.on('connection', (socket: WebSocket) => {
    const on = socket.on.bind(socket) as (event: string, listener: (...args: unknown[]) => void) => WebSocket;
    socket.on = ((event: string, listener: (...args: unknown[]) => void) => {
      if (event !== 'message') return on(event, listener);
      return on('message', (data: unknown, ...rest: unknown[]) => {
        const text = String(data);
        if (SERVER_MESSAGE_TYPE.test(text) && isServerMessage(text)) return socket.close(CLOSE_BAD_REQUEST, 'Invalid message received');
        listener(data, ...rest);
      });
    }) as WebSocket['on'];
  });
}

function isServerMessage(text: string): boolean {
  try {
    const type = (JSON.parse(text) as { type?: unknown } | null)?.type;
    return type === 'connection_ack' || type === 'next' || type === 'error';
  } catch {
    return false;
  }
}

/**
 * graphql-ws on `/graphql` (same path as HTTP). The connection is admitted
 * with `connectionParams.authorization` (a socket without a good key closes
 * with 4403 before any operation), and so is every operation: each takes one
 * unit of the account's rate window (429 → that operation's
 * RATE_LIMIT_EXCEEDED error; the socket stays usable), and a key revoked
 * since closes the socket with 4403, as does a revocation while it is open.
 * Operations go through the same bounded parsing and validation rules as HTTP.
 */
export function attachGraphQLWebSocket(o: {
  server: Server;
  schema: GraphQLSchema;
  deps: AppDeps;
  logger: Logger;
  production: boolean;
  /** The service's public origin: a session socket must be opened from it. */
  publicUrl?: () => string;
  /** Told when a subscription's stream opens and ends (metrics). */
  streams?: StreamObserver;
  /** What accounts hold open on this instance, shared with the other transports. */
  quotas: StreamQuotas;
}): { close(): Promise<void> } {
  /** The connection's API key, else the session cookie of its upgrade request (opened from the service's own origin only). */
  const admit = (extra: ConnectionExtra): Promise<Admission> =>
    extra.sessionCookie !== undefined ? admitSession(o.deps, extra.sessionCookie) : admitRequest(o.deps, extra.authorization);
  const wss = new WebSocketServer({ server: o.server, path: '/graphql', maxPayload: MAX_PAYLOAD });
  // before useServer: this connection listener must run ahead of graphql-ws's own
  refuseServerMessageTypes(wss);
  const rules = operationRules(o.production);
  const quotas = o.quotas;
  const masked = (errors: readonly GraphQLError[], requestId?: string) =>
    errors.map((e) =>
      maskError(e, () => requestId, { production: o.production, onMasked: (err) => o.logger.error({ err, requestId }, 'graphql operation failed') }),
    );
  const closeSoon = (socket: WebSocket, code: number, reason: string) => setImmediate(() => socket.close(code, reason));

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
        // A joiner pays as its field's admission says, as the subscriber that started the stream did.
        onJoin: async (args) => {
          const ctx = args.contextValue as GraphQLContext;
          const operation = subscriptionAdmission(args);
          if (ctx.principal && operation) await authorizeOperation(o.deps, ctx.principal, operation);
        },
      }),
      connectionInitWaitTimeout: 5_000,
      onConnect: async (ctx) => {
        const auth = ctx.connectionParams?.authorization;
        const authorization = typeof auth === 'string' ? auth : undefined;
        const request = ctx.extra.request;
        const sessionCookie = authorization === undefined ? sessionCookieOf(request) : undefined;
        // Cross-site WebSocket hijacking: a page elsewhere cannot ride the session cookie.
        if (sessionCookie !== undefined && !sameOrigin(request, o.publicUrl?.())) return false;
        ctx.extra.authorization = authorization;
        ctx.extra.sessionCookie = sessionCookie;
        try {
          const { principal } = await admit(ctx.extra);
          if (!quotas.take('socket', principal.account.id, principal.account.plan)) {
            ctx.extra.socket.close(CLOSE_RATE_LIMITED, `Too many open connections for this account (${quotaOf('socket', principal.account.plan)} on its plan)`);
            return false;
          }
          ctx.extra.quotaAccount = principal.account.id;
          ctx.extra.subscriptions = new Map();
          ctx.extra.principal = principal;
          // The socket ends with its credential: a revoked key, or a session signed out or expired.
          const credential = credentialOf(principal);
          if (credential) {
            const socket = ctx.extra.socket;
            const why = principal.keyId ? 'API key revoked' : 'Signed out, or the session expired';
            ctx.extra.stopWatching = o.deps.revocations.watch(credential, () => socket.close(CLOSE_FORBIDDEN, why));
          }
          return true;
        } catch (e) {
          if (!isServiceError(e)) o.logger.error({ err: e }, 'websocket admission failed');
          // Closed here with its own code; graphql-ws's 4403 for `false` then finds the socket closing.
          if (isServiceError(e) && e.code === 'RATE_LIMIT_EXCEEDED') ctx.extra.socket.close(CLOSE_RATE_LIMITED, 'Rate limit exceeded');
          return false;
        }
      },
      onClose: (ctx) => {
        ctx.extra.stopWatching?.();
        const account = ctx.extra.quotaAccount;
        if (account === undefined) return;
        quotas.release('socket', account);
        for (const slot of ctx.extra.subscriptions?.values() ?? []) slot.release();
        ctx.extra.subscriptions?.clear();
      },
      onComplete: (ctx, id) => {
        ctx.extra.subscriptions?.get(id)?.release();
        ctx.extra.subscriptions?.delete(id);
      },
      onSubscribe: async (ctx, id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        try {
          const { principal } = await admit(ctx.extra);
          ctx.extra.principal = principal;
        } catch (thrown) {
          const e = toServiceError(thrown);
          if (e.code === 'UNAUTHORIZED') closeSoon(ctx.extra.socket, CLOSE_FORBIDDEN, 'API key revoked or invalid');
          return [toGraphQLError(e)];
        }
        const tooDeep = checkRequestObjects({ variables: payload.variables, extensions: payload.extensions });
        if (tooDeep) return masked([tooDeep]);
        const checked = parseAndValidate(o.schema, String(payload.query), rules, (d) => costCeilingRefusal(d, payload.operationName, payload.variables));
        if (checked.errors) return masked(checked.errors);
        const { document } = checked;
        const contextValue: GraphQLContext = { deps: o.deps, principal: ctx.extra.principal ?? null, requestId: newId('request') };
        const refused = await chargeInto(contextValue, document, payload.operationName, payload.variables);
        if (refused) return masked([refused], contextValue.requestId);
        const principal = ctx.extra.principal;
        if (principal && getOperationAST(document, payload.operationName ?? undefined)?.operation === 'subscription') {
          const slot = openSubscription(quotas, principal);
          if (slot instanceof GraphQLError) return [slot];
          ctx.extra.subscriptions?.set(id, slot);
        }
        return { schema: o.schema, document, variableValues: payload.variables ?? undefined, operationName: payload.operationName ?? undefined, contextValue };
      },
      // A subscription that started: its credits reported, its stream counted until it ends.
      onOperation: (_ctx, _id, _payload, args, result) =>
        Symbol.asyncIterator in result
          ? startedStream(result, args.contextValue as GraphQLContext, args.document, args.operationName, 'websocket', o.streams)
          : undefined,
      // Same error shape as HTTP: extensions.code equal to the REST code, internals masked.
      onNext: async (_ctx, _id, _payload, args, result) => {
        // A query or mutation answers once: what its failed fields reserved goes back now.
        await (args.contextValue as GraphQLContext).charge?.release();
        return result.errors ? { ...result, errors: masked(result.errors, (args.contextValue as GraphQLContext).requestId) } : result;
      },
      onError: (_ctx, _id, _payload, errors) => masked(errors),
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
