import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  execute,
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
} from 'graphql';
import type { GraphQLContext } from './context';
import { maskError, type OnMasked } from './errors';
import { checkRequestObjects } from './operationLimits';
import { readBoundedBody } from './readBody';
import { chargeInto } from './operationCost';
import { documentCache } from './documentCache';

export interface FastPathOptions {
  schema: GraphQLSchema;
  production: boolean;
  bodyLimitBytes: number;
  /** Logs what is masked as INTERNAL_ERROR. */
  onMasked?: OnMasked;
}

/** The JSON answer types of GraphQL over HTTP. */
export type AnswerType = 'application/json' | 'application/graphql-response+json';

/**
 * How the fast path answers a request:
 * - `plain`: a JSON POST asking for `application/json` (or nothing yoga
 *   serves), answered as before: 200 with `errors` for anything the document
 *   gets wrong, 400 for a malformed body;
 * - `spec`: a GET, or a JSON POST whose Accept yoga would answer with
 *   `type` (e.g. `application/graphql-response+json`), answered exactly as
 *   yoga answers it (GraphQL over HTTP: 400 for parse and validation errors
 *   under application/graphql-response+json, a mutation over GET 405 with
 *   `Allow: POST`, an operation that cannot be determined 400, …).
 */
export type FastRoute = { mode: 'plain' } | { mode: 'spec'; type: AnswerType; method: 'GET' | 'POST' };

/** What the fast path leaves to yoga: the request as it came, with the body it already read (POST). */
export interface HandOver {
  body?: Buffer;
}

const REGULAR_TYPES: readonly AnswerType[] = ['application/graphql-response+json', 'application/json'];

/**
 * The answer yoga's result processors pick for a query or mutation, by
 * yoga's own rule (useResultProcessors + getMediaTypesForRequestInOrder):
 * Accept entries in reverse order, wildcards on the asking side, utf-8 the
 * only charset, processors SSE, multipart, then the JSON pair, the last match
 * winning. `stream` when SSE or multipart wins (yoga serves those); null when
 * nothing matches (the handler then answers JSON, as yoga is told to).
 */
export function yogaAnswerType(accept: string | undefined): AnswerType | 'stream' | null {
  const key = accept ?? '';
  const known = answerTypes.get(key);
  if (known !== undefined) return known;
  const type = answerTypeOf(accept);
  // Clients send a handful of distinct Accept headers: remember them (a bounded number).
  if (answerTypes.size >= 256) answerTypes.clear();
  answerTypes.set(key, type);
  return type;
}

const answerTypes = new Map<string, AnswerType | 'stream' | null>();

function answerTypeOf(accept: string | undefined): AnswerType | 'stream' | null {
  const asked = (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .filter((entry) => {
      const params = entry.split(';').slice(1);
      return (params.find((p) => p.includes('charset=')) ?? 'charset=utf-8') === 'charset=utf-8';
    })
    .map((entry) => entry.split(';')[0]!)
    .reverse();
  const matches = (type: string, a: string) => {
    const [pre, suf] = type.split('/');
    const [askedPre, askedSuf] = a.split('/');
    return (askedPre === '*' || askedPre === pre) && (askedSuf === '*' || askedSuf === suf);
  };
  for (const a of asked) if (matches('application/graphql-response+json', a) || matches('application/json', a)) return lastRegular(asked, matches);
  return asked.some((a) => matches('text/event-stream', a) || matches('multipart/mixed', a)) ? 'stream' : null;
}

function lastRegular(asked: string[], matches: (type: string, a: string) => boolean): AnswerType {
  let chosen: AnswerType = 'application/json';
  for (const a of asked) for (const t of REGULAR_TYPES) if (matches(t, a)) chosen = t;
  return chosen;
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

const OPERATION_UNDETERMINED = { message: 'Could not determine what operation to execute.', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } };
const MUTATION_OVER_GET = { message: 'Can only perform a mutation operation from a POST request.', extensions: { code: 'BAD_REQUEST' } };
const PARAMS = new Set(['query', 'variables', 'operationName', 'extensions']);
const isObjectOrNone = (v: unknown) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v));

/**
 * `/graphql` queries and mutations over plain JSON POSTs and GETs executed
 * straight on graphql-js: the body read once, parse and validation cached per
 * query text (documentCache, shared with yoga and graphql-ws), the answer
 * written directly. What it does not answer (subscriptions over HTTP, SSE and
 * multipart answers, forms, application/graphql bodies, malformed GET
 * parameters and `spec` bodies, GraphiQL) goes to yoga.
 */
export function createGraphQLFastPath(o: FastPathOptions) {
  const mask = { production: o.production, onMasked: o.onMasked };
  const documents = documentCache(o.schema, o.production);

  /** Writes the answer (one write: headers and body); undefined, so a handler can `return send(…)`. */
  const send = (res: ServerResponse, status: number, body: unknown, type: AnswerType = 'application/json', headers?: Record<string, string>): undefined => {
    const text = JSON.stringify(body);
    res.writeHead(status, { ...headers, 'Content-Type': `${type}; charset=utf-8`, 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
    return undefined;
  };
  const badRequest = (res: ServerResponse, message: string) => send(res, 400, { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });

  /** The operation's credits reserved, then graphql-js; the refusal or the result, errors masked. */
  async function run(context: GraphQLContext, document: DocumentNode, variables: unknown, operationName: string | undefined): Promise<{ errors: readonly GraphQLError[]; data?: undefined } | ExecutionResult> {
    const refused = await chargeInto(context, document, operationName);
    if (refused) return { errors: [maskError(refused, () => context.requestId, mask)] };
    let result: ExecutionResult;
    try {
      result = (await execute({
        schema: o.schema,
        document,
        variableValues: (variables as Record<string, unknown> | null | undefined) ?? undefined,
        operationName,
        contextValue: context,
      })) as ExecutionResult;
    } finally {
      await context.charge?.release();
    }
    return result.errors ? { ...result, errors: result.errors.map((e) => maskError(e, () => context.requestId, mask)) } : result;
  }

  /** The answer of the plain mode (unchanged from before GET and graphql-response+json came here). */
  async function plain(req: IncomingMessage, res: ServerResponse, context: GraphQLContext): Promise<undefined> {
    let body: unknown;
    try {
      body = JSON.parse((await readBoundedBody(req, o.bodyLimitBytes)).toString('utf8'));
    } catch (e) {
      if (e instanceof SyntaxError) return badRequest(res, 'POST body sent invalid JSON.');
      throw e;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return badRequest(res, 'POST body is expected to be object but received ' + (Array.isArray(body) ? 'array' : typeof body));
    const { query, variables, operationName, extensions, ...rest } = body as Record<string, unknown>;
    const unknownKey = Object.keys(rest)[0];
    if (unknownKey !== undefined) return badRequest(res, `Unexpected parameter "${unknownKey}" in the request body.`);
    if (typeof query !== 'string') return badRequest(res, 'Must provide query string.');
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return badRequest(res, 'Invalid variables provided');
    if (operationName != null && typeof operationName !== 'string') return badRequest(res, 'Invalid operationName provided');
    const tooDeep = checkRequestObjects({ variables, extensions });
    if (tooDeep) return send(res, 400, { errors: [tooDeep.toJSON()] });

    const p = documents.parse(query);
    const errors = p.error ? [p.error] : documents.validate(p.document);
    if (errors.length > 0 || !p.document) return send(res, 200, { errors: errors.map((e) => maskError(e, () => context.requestId, mask)) });
    if (getOperationAST(p.document, operationName ?? undefined)?.operation === 'subscription') {
      return badRequest(res, 'Subscriptions are served over WebSocket (graphql-ws) or SSE (Accept: text/event-stream).');
    }
    return send(res, 200, await run(context, p.document, variables, (operationName as string | null | undefined) ?? undefined));
  }

  /** The request's parameters as yoga reads them, or null when yoga should answer (anything it would refuse or mask). */
  async function specParams(req: IncomingMessage, method: 'GET' | 'POST'): Promise<{ params?: Record<string, unknown>; body?: Buffer; malformed?: string }> {
    if (method === 'GET') {
      const url = req.url ?? '';
      const search = searchParams(url.substring(url.indexOf('?') + 1));
      const query = search.get('query') || undefined;
      if (query === undefined) return {};
      const json = (name: string): { value?: unknown; bad?: true } => {
        const text = search.get(name) || undefined;
        if (text === undefined) return {};
        try {
          return { value: JSON.parse(text) as unknown };
        } catch {
          return { bad: true };
        }
      };
      const variables = json('variables');
      const extensions = json('extensions');
      // Yoga let JSON.parse's SyntaxError through, answered as INTERNAL_ERROR: it is the client's malformed request.
      if (variables.bad || extensions.bad) return { malformed: `The ${variables.bad ? 'variables' : 'extensions'} parameter is not valid JSON.` };
      return { params: { query, variables: variables.value, extensions: extensions.value, operationName: search.get('operationName') || undefined } };
    }
    const body = await readBoundedBody(req, o.bodyLimitBytes);
    let params: unknown;
    try {
      params = JSON.parse(body.toString('utf8'));
    } catch {
      return { body };
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return { body };
    for (const [k, v] of Object.entries(params)) if (v != null && !PARAMS.has(k)) return { body };
    const { query } = params as Record<string, unknown>;
    if (typeof query !== 'string') return { body };
    return { params: params as Record<string, unknown>, body };
  }

  /** The answer yoga would give (see FastRoute); a HandOver when yoga should give it. */
  async function spec(req: IncomingMessage, res: ServerResponse, context: GraphQLContext, route: Extract<FastRoute, { mode: 'spec' }>): Promise<HandOver | undefined> {
    const { params, body, malformed } = await specParams(req, route.method);
    if (malformed) return send(res, 400, { errors: [{ message: malformed, extensions: { code: 'BAD_REQUEST' } }] }, route.type);
    if (!params) return { body };
    const { query, variables, extensions, operationName } = params as { query: string; variables?: unknown; extensions?: unknown; operationName?: unknown };
    if (!isObjectOrNone(variables) || !isObjectOrNone(extensions) || (operationName != null && typeof operationName !== 'string')) return { body };
    if (checkRequestObjects({ variables, extensions })) return { body };
    const type = route.type;

    const p = documents.parse(query);
    // Parse and validation errors are GraphQL over HTTP's request errors: 400 under graphql-response+json, 200 under application/json.
    const requestError = type === 'application/graphql-response+json' ? 400 : 200;
    if (p.error) return send(res, requestError, { errors: [maskError(p.error, () => context.requestId, mask)] }, type);
    const operation = getOperationAST(p.document, (operationName as string | null | undefined) ?? undefined);
    if (!operation) return send(res, 400, { errors: [OPERATION_UNDETERMINED] }, type);
    if (operation.operation === 'mutation' && route.method === 'GET') return send(res, 405, { errors: [MUTATION_OVER_GET] }, type, { Allow: 'POST' });
    // Subscriptions over HTTP are yoga's (SSE; a refusal naming SSE and WebSocket otherwise).
    if (operation.operation === 'subscription') return { body };
    const invalid = documents.validate(p.document);
    if (invalid.length > 0) return send(res, requestError, { errors: invalid }, type);

    const result = await run(context, p.document, variables, (operationName as string | null | undefined) ?? undefined);
    // Yoga answers 400 (whatever the type) when a request error is among the errors: variables that do not fit (withHttpStatus).
    const status = result.errors?.some((e) => e.extensions.code === 'INVALID_REQUEST' && e.extensions.status === 400) ? 400 : 200;
    return send(res, status, result, type);
  }

  return {
    /** How the fast path answers this request, or null when yoga does. */
    route(req: IncomingMessage): FastRoute | null {
      const method = req.method;
      if (method !== 'GET' && method !== 'POST') return null;
      const contentType = req.headers['content-type'] ?? '';
      if (method === 'POST') {
        if (!contentType.startsWith('application/json')) return null;
        const accept = req.headers.accept ?? '*/*';
        if (!accept.includes('text/event-stream') && !accept.includes('application/graphql-response+json') && !accept.includes('multipart/mixed')) return { mode: 'plain' };
        if (contentType.split(';')[0]!.trim().toLowerCase() !== 'application/json') return null;
      }
      const type = yogaAnswerType(req.headers.accept);
      if (type === 'stream') return null;
      return { mode: 'spec', type: type ?? 'application/json', method };
    },

    /** Answers the request, or hands it to yoga (with the body it read). */
    async handle(req: IncomingMessage, res: ServerResponse, context: GraphQLContext, route: FastRoute): Promise<HandOver | undefined> {
      return route.mode === 'plain' ? plain(req, res, context) : spec(req, res, context, route);
    },
  };
}
