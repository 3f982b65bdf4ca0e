import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { ServiceApiError, type GraphQLErrorEntry } from './errors';
import { originOf } from './rest';

/** A typed GraphQL document: the SDK's generated documents (TypedDocumentString) or any string-backed typed document. */
export type TypedDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & { toString(): string };

/** Result and variables of a typed document. */
export type ResultOf<D> = D extends DocumentTypeDecoration<infer R, unknown> ? R : never;
export type VariablesOf<D> = D extends DocumentTypeDecoration<unknown, infer V> ? V : never;

/** A GraphQL answer as the service sends it: data (root fields are nullable) and errors. */
export interface GraphQLAnswer<TResult> {
  data: TResult | null | undefined;
  errors: readonly GraphQLErrorEntry[] | undefined;
  response: Response;
}

export interface GraphQLClientOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch?: ((input: Request) => Promise<Response>) | undefined;
  headers?: Record<string, string> | undefined;
  /** The WebSocket implementation for subscriptions (default: globalThis.WebSocket, else the `ws` package). */
  webSocketImpl?: unknown;
}

/** GraphQL over HTTP (queries, mutations) and over WebSocket (graphql-ws, subscriptions), with the same API key. */
export interface GraphQLClient {
  /**
   * Sends a query or mutation; resolves with its data, or throws a
   * ServiceApiError named after the first error's `extensions.code` when the
   * answer has any error (`execute` gives partial data with its errors).
   */
  request<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables> | string,
    variables?: TVariables,
    init?: { signal?: AbortSignal; headers?: Record<string, string> },
  ): Promise<TResult>;
  /** Sends a query or mutation and answers data and errors as they are (root fields are nullable: a missing resource nulls only its field). */
  execute<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables> | string,
    variables?: TVariables,
    init?: { signal?: AbortSignal; headers?: Record<string, string> },
  ): Promise<GraphQLAnswer<TResult>>;
  /**
   * The graphql-ws client of this service (created on first use, lazy: it
   * connects for the first subscription and closes after the last one ends).
   * The API key goes in `connectionParams.authorization`.
   */
  ws(): WsClient;
  /** Closes the WebSocket, if one was opened. */
  close(): Promise<void>;
}

/** A GraphQL client for `/graphql` of the service at `baseUrl`. */
export function createGraphQLClient(o: GraphQLClientOptions): GraphQLClient {
  const origin = originOf(o.baseUrl);
  const fetchImpl = o.fetch ?? ((request: Request) => globalThis.fetch(request));
  let ws: WsClient | undefined;

  const execute: GraphQLClient['execute'] = async (document, variables, init = {}) => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/graphql-response+json, application/json',
      ...o.headers,
      ...init.headers,
    };
    if (o.apiKey !== undefined) headers.Authorization = `Bearer ${o.apiKey}`;
    const request = new Request(`${origin}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const response = await fetchImpl(request);
    const text = await response.text();
    let body: { data?: unknown; errors?: GraphQLErrorEntry[]; error?: string } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    // A refusal before GraphQL ran (401 with a REST-style body, 415, 413…) has no `errors`.
    if (body === undefined || (body.errors === undefined && body.data === undefined)) throw ServiceApiError.fromResponse(response, body ?? text);
    return { data: body.data as never, errors: body.errors, response };
  };

  return {
    execute,
    async request(document, variables, init) {
      const answer = await execute(document, variables, init);
      if (answer.errors !== undefined && answer.errors.length > 0) throw ServiceApiError.fromGraphQL(answer.errors, answer.response);
      if (answer.data === null || answer.data === undefined) throw ServiceApiError.fromResponse(answer.response, undefined);
      return answer.data;
    },
    ws() {
      ws ??= createWsClient({
        url: `${origin.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: o.webSocketImpl ?? defaultWebSocket(),
        connectionParams: o.apiKey !== undefined ? { authorization: `Bearer ${o.apiKey}` } : {},
        // a refused key (4403) or too many connections (4429) is final: no retries
        shouldRetry: () => false,
      });
      return ws;
    },
    async close() {
      await ws?.dispose();
      ws = undefined;
    },
  };
}

/** The platform's WebSocket (browsers, Node 22+), else the `ws` package (Node 20). */
function defaultWebSocket(): unknown {
  const native = (globalThis as { WebSocket?: unknown }).WebSocket;
  if (native !== undefined) return native;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('ws');
}
