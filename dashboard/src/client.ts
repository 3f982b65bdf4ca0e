import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange, type CombinedError } from '@urql/core';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws/client';

/**
 * The dashboard's GraphQL client. Every HTTP request is a same-origin POST
 * of JSON to /graphql carrying the HttpOnly session cookie and the header
 * `X-Requested-With: dashboard` (the service's CSRF defence refuses session
 * requests without it); never GET, never an API key. Subscriptions go over
 * graphql-ws to ws(s)://<this host>/graphql, where the browser sends the
 * cookie with the upgrade.
 */

export const GRAPHQL_PATH = '/graphql';
export const CSRF_HEADERS = { 'X-Requested-With': 'dashboard' } as const;

/** True when the error says the session is missing or expired. */
export function isUnauthorized(error: CombinedError | undefined | null): boolean {
  if (!error) return false;
  if (error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHORIZED')) return true;
  const status = (error.response as { status?: number } | undefined)?.status;
  return status === 401;
}

export type LiveState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** The state of the subscription socket, for the "live" indicator, and a way to hear reconnections. */
export class LiveStatus {
  private current: LiveState = 'idle';
  private connectedOnce = false;
  private readonly listeners = new Set<(state: LiveState, reconnected: boolean) => void>();

  get state(): LiveState {
    return this.current;
  }

  set(state: LiveState): void {
    let reconnected = false;
    if (state === 'connecting' && this.connectedOnce) state = 'reconnecting';
    if (state === 'connected') {
      reconnected = this.connectedOnce;
      this.connectedOnce = true;
    }
    this.current = state;
    for (const l of this.listeners) l(state, reconnected);
  }

  subscribe(listener: (state: LiveState, reconnected: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export interface DashboardClient {
  client: Client;
  live: LiveStatus;
  dispose(): void;
}

function websocketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${GRAPHQL_PATH}`;
}

export function createDashboardClient(onUnauthorized: () => void): DashboardClient {
  const live = new LiveStatus();
  const ws: WsClient = createWsClient({
    url: websocketUrl(),
    connectionParams: { dashboard: true },
    lazy: true,
    lazyCloseTimeout: 3_000,
    keepAlive: 20_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    // 1 s, 2 s, 4 s … capped at 30 s, plus up to 1 s of jitter.
    retryWait: (retries) => new Promise((resolve) => window.setTimeout(resolve, Math.min(30_000, 1_000 * 2 ** retries) + Math.random() * 1_000)),
    on: {
      connecting: () => live.set('connecting'),
      connected: () => live.set('connected'),
      closed: () => live.set('closed'),
    },
  });

  const client = new Client({
    url: GRAPHQL_PATH,
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({
      credentials: 'same-origin',
      headers: { ...CSRF_HEADERS },
    }),
    exchanges: [
      mapExchange({
        onError(error) {
          if (isUnauthorized(error)) onUnauthorized();
        },
      }),
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const payload = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(payload, sink as Parameters<WsClient['subscribe']>[1]);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });

  return {
    client,
    live,
    dispose() {
      void ws.dispose();
    },
  };
}
