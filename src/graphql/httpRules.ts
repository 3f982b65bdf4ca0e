import { GraphQLError, Kind, getOperationAST, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { answerType, namesType, type AnswerType } from './acceptHeader';
import { checkRequestObjects } from './operationLimits';

/**
 * GraphQL over HTTP on /graphql, decided once for both of its answerers: the
 * fast path (fastPath.ts) calls these functions, and yoga is made to call
 * them by the plugin at the end of this file. The rules (docs/api-guide.md,
 * "GraphQL over HTTP"):
 * - a request that is not a well-formed GraphQL request (body not JSON, not
 *   one object, unknown or mistyped parameters, GET variables not JSON,
 *   variables nested too deep) is 400 whatever the answer type, and a
 *   mutation over GET is 405 with `Allow: POST`: these errors carry
 *   `extensions.http` (graphql-yoga's convention, which its own HTTP-level
 *   errors follow; it is never sent);
 * - a GraphQL request error (the document does not parse or validate, the
 *   operation cannot be determined, variables do not fit, the operation is
 *   refused before it runs: no `data`) is 200 under application/json (the
 *   spec's legacy rule) and 4xx under application/graphql-response+json;
 * - a response with `data` (even null) is 200 under both.
 */

/** The parameters of a well-formed GraphQL-over-HTTP request. */
export interface GraphQLParams {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  extensions?: Record<string, unknown>;
}

interface HttpExtension {
  status: number;
  headers?: Record<string, string>;
  /** Set by yoga on parse and validation errors it annotates: their status is decided by answerOf, not by this. */
  spec?: boolean;
}

/** An error about the HTTP request itself, naming the parameter at fault. */
function malformed(message: string, param?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_REQUEST', status: 400, ...(param ? { details: { issues: [{ path: [param], message }] } } : {}), http: { status: 400 } },
  });
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObjectOrNone = (v: unknown) => v === undefined || v === null || kindOf(v) === 'object';
const PARAMS = new Set(['query', 'variables', 'operationName', 'extensions']);

/** The request's parameters, or the error that refuses them (400, whatever the answer type). */
export function checkParams(value: unknown): GraphQLParams | GraphQLError {
  if (kindOf(value) !== 'object') {
    return malformed(
      Array.isArray(value)
        ? 'Batching is not supported: send one operation per request, as a JSON object.'
        : `POST body is expected to be a JSON object but received ${kindOf(value)}.`,
    );
  }
  const params = value as Record<string, unknown>;
  // A parameter sent as null is one not sent (as yoga reads it).
  for (const [k, v] of Object.entries(params)) if (v != null && !PARAMS.has(k)) return malformed(`Unexpected parameter "${k}" in the request body.`, k);
  const { query, variables, operationName, extensions } = params;
  if (query == null) return malformed('Must provide query string.', 'query');
  if (typeof query !== 'string') return malformed(`Expected "query" param to be a string, but given ${kindOf(query)}.`, 'query');
  if (!isObjectOrNone(variables)) return malformed(`Expected "variables" param to be empty or an object, but given ${kindOf(variables)}.`, 'variables');
  if (!isObjectOrNone(extensions)) return malformed(`Expected "extensions" param to be empty or an object, but given ${kindOf(extensions)}.`, 'extensions');
  if (operationName != null && typeof operationName !== 'string')
    return malformed(`Expected "operationName" param to be a string, but given ${kindOf(operationName)}.`, 'operationName');
  const tooDeep = checkRequestObjects({ variables, extensions });
  if (tooDeep) return new GraphQLError(tooDeep.message, { extensions: { ...tooDeep.extensions, status: 400, http: { status: 400 } } });
  return {
    query,
    variables: (variables ?? undefined) as GraphQLParams['variables'],
    operationName: (operationName ?? undefined) as GraphQLParams['operationName'],
    extensions: (extensions ?? undefined) as GraphQLParams['extensions'],
  };
}

/** A JSON POST body's parameters, or the error that refuses it (never the JSON parser's own text). */
export function paramsFromJson(text: string): GraphQLParams | GraphQLError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return malformed('POST body sent invalid JSON.', 'body');
  }
  return checkParams(value);
}

/**
 * A GET query string's (or a form body's) parameters, as yoga reads them
 * (first value of each name, an empty value is none), variables and
 * extensions as JSON; the error that refuses them otherwise.
 */
export function paramsFromSearch(qs: string): GraphQLParams | GraphQLError {
  const search = searchParams(qs);
  const json = (name: string): { value?: unknown; bad?: GraphQLError } => {
    const text = search.get(name) || undefined;
    if (text === undefined) return {};
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return { bad: malformed(`The ${name} parameter is not valid JSON.`, name) };
    }
  };
  const variables = json('variables');
  const extensions = json('extensions');
  if (variables.bad || extensions.bad) return (variables.bad ?? extensions.bad)!;
  return checkParams({
    query: search.get('query') || undefined,
    variables: variables.value,
    extensions: extensions.value,
    operationName: search.get('operationName') || undefined,
  });
}

/**
 * The query string's parameters, first value of each name, as
 * URLSearchParams reads them ('+' is a space, percent-escapes decoded), by
 * the engine's decodeURIComponent (URLSearchParams' parser is JavaScript and
 * was the largest cost of a GET after the answer's write); a malformed escape
 * falls back to URLSearchParams, which tolerates it.
 */
export function searchParams(qs: string): { get(name: string): string | null } {
  const out = new Map<string, string>();
  try {
    for (const pair of qs.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decode(eq === -1 ? pair : pair.slice(0, eq));
      if (!out.has(name)) out.set(name, eq === -1 ? '' : decode(pair.slice(eq + 1)));
    }
  } catch {
    return new URLSearchParams(qs);
  }
  return { get: (name) => out.get(name) ?? null };
}
const decode = (s: string) => (s.includes('%') || s.includes('+') ? decodeURIComponent(s.includes('+') ? s.replace(/\+/g, ' ') : s) : s);

/**
 * The operation a request executes, or the error that stops it: none can be
 * determined (a GraphQL request error naming `operationName`, in graphql-js's
 * words), or a mutation over GET (405, Allow: POST).
 */
export function operationOf(document: DocumentNode, operationName: string | null | undefined, method: string): OperationDefinitionNode | GraphQLError {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) {
    const count = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
    const message = operationName
      ? `Unknown operation named "${operationName}".`
      : count === 0
        ? 'Must provide an operation.'
        : 'Must provide operation name if query contains multiple operations.';
    return new GraphQLError(message, {
      extensions: { code: 'OPERATION_RESOLUTION_FAILURE', status: 400, details: { issues: [{ path: ['operationName'], message }] } },
    });
  }
  if (operation.operation === 'mutation' && method === 'GET') {
    return new GraphQLError('Can only perform a mutation operation from a POST request.', {
      extensions: { code: 'BAD_REQUEST', status: 405, http: { status: 405, headers: { Allow: 'POST' } } },
    });
  }
  return operation;
}

/**
 * A subscription over HTTP streams over SSE (yoga's) when Accept names
 * text/event-stream, as GraphQL over SSE asks of its clients; otherwise (a
 * plain JSON client sending `*\/*` or nothing included, which would get a
 * stream it does not read) it is refused (400) before it starts, naming the
 * transports that stream.
 */
export function subscriptionRefusal(accept: string | null | undefined): GraphQLError | null {
  if (namesType(accept, 'text/event-stream')) return null;
  return new GraphQLError('Subscriptions are served over WebSocket (graphql-ws) or SSE (Accept: text/event-stream).', {
    extensions: { code: 'BAD_REQUEST', status: 400, http: { status: 400 } },
  });
}

/** One error as sent: what is only for the transport (http, yoga's `unexpected` and `originalError`) left out. */
function sent(e: GraphQLError): unknown {
  const json = e.toJSON() as { extensions?: Record<string, unknown> };
  if (!json.extensions) return json;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken out so that the rest is sent
  const { http, unexpected, originalError, ...extensions } = json.extensions;
  return { ...json, extensions: Object.keys(extensions).length ? extensions : undefined };
}

/** The HTTP answer of a GraphQL result: status, headers and body text, by the rules above. */
export function answerOf(result: ExecutionResult, type: AnswerType): { status: number; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'Content-Type': `${type}; charset=utf-8` };
  const errors = result.errors ?? [];
  let status = 0;
  for (const e of errors) {
    const http = e.extensions?.http as HttpExtension | undefined;
    if (!http?.status || http.spec) continue;
    Object.assign(headers, http.headers);
    status = Math.max(status, http.status);
  }
  if (status === 0) {
    status = 200;
    if (type === 'application/graphql-response+json' && errors.length > 0 && result.data === undefined) {
      // No data: a request error, 4xx (the errors' own status when they carry one, 400 otherwise).
      status = Math.max(400, ...errors.map((e) => Number(e.extensions?.status) || 0).filter((s) => s >= 400 && s < 600));
    }
  }
  let body = result;
  if (errors.length > 0 || result.extensions?.http) {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken out so that the rest is sent
    const { http, ...extensions } = result.extensions ?? {};
    body = {
      ...result,
      ...(result.errors ? { errors: result.errors.map(sent) as unknown as GraphQLError[] } : {}),
      extensions: result.extensions && Object.keys(extensions).length ? extensions : undefined,
    };
  }
  return { status, headers, body: JSON.stringify(body) };
}

const throwIfError = <T>(v: T | GraphQLError): T => {
  if (v instanceof GraphQLError) throw v;
  return v;
};
const isJsonBody = (request: Request) => {
  const type = request.headers.get('content-type')?.split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || type === 'application/graphql+json';
};

/**
 * Yoga made to follow the rules above where its own differ: it reads GET,
 * JSON and form parameters with paramsFromJson/paramsFromSearch (yoga let a
 * GET's malformed variables through as an INTERNAL_ERROR, and sent the JSON
 * parser's message), checks them with checkParams before its own checks (no
 * `Allow` on a 400), resolves the operation with operationOf, and answers
 * every JSON result with answerOf (yoga answered 400 under application/json
 * for variables that do not fit). Streams (SSE, multipart) stay yoga's.
 */
export function httpRules(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method === 'GET') setRequestParser((r) => throwIfError(paramsFromSearch(new URL(r.url, 'http://localhost').search.slice(1))));
      else if (request.method === 'POST' && isJsonBody(request)) setRequestParser(async (r) => throwIfError(paramsFromJson(await r.text())));
      else if (request.method === 'POST' && request.headers.get('content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
        setRequestParser(async (r) => throwIfError(paramsFromSearch(await r.text())));
      }
    },
    onParams({ params }) {
      throwIfError(checkParams(params));
    },
    onParse() {
      return ({ result, context }) => {
        const { request, params } = context as { request?: Request; params?: { operationName?: string } };
        // Not a yoga HTTP request (or the document did not parse): nothing to resolve.
        if (!request || result instanceof Error || result === null) return;
        const operation = operationOf(result as DocumentNode, params?.operationName, request.method);
        if (operation instanceof GraphQLError) throw operation;
      };
    },
    onResultProcess({ request, result, setResultProcessor }) {
      if (isAsyncIterable(result) || Array.isArray(result)) return;
      const type = answerType(request.headers.get('accept'));
      if (type === 'stream') return;
      const asked = type ?? 'application/json';
      setResultProcessor((r, fetchAPI) => {
        const a = answerOf(r as ExecutionResult, asked);
        return new fetchAPI.Response(a.body, { status: a.status, headers: a.headers });
      }, asked);
    },
  };
}
