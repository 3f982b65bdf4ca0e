import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  execute,
  getOperationAST,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import type { GraphQLContext } from './context';
import { maskError, type OnMasked } from './errors';
import { checkRequestObjects, operationRules, parseAndValidate, withCode, type CheckedDocument } from './operationLimits';
import { readBoundedBody } from './readBody';
import { chargeInto } from './operationCost';

export interface FastPathOptions {
  schema: GraphQLSchema;
  production: boolean;
  bodyLimitBytes: number;
  /** Logs what is masked as INTERNAL_ERROR. */
  onMasked?: OnMasked;
}

/**
 * Plain `POST /graphql` JSON queries and mutations executed straight on
 * graphql-js: the body read once, parse + validation cached per query text,
 * the answer written directly. It answers exactly as yoga does for
 * `application/json` (200 with `errors`, 400 for a malformed request);
 * everything else (GET, SSE, GraphiQL, graphql-response+json) goes to yoga.
 */
export function createGraphQLFastPath(o: FastPathOptions) {
  const rules = operationRules(o.production);
  const mask = { production: o.production, onMasked: o.onMasked };
  const prepared = new LRUCache<string, CheckedDocument>({ max: 1_000, maxSize: 8 * 1024 * 1024, sizeCalculation: (_v, k) => k.length + 1 });

  function prepare(query: string): CheckedDocument {
    const hit = prepared.get(query);
    if (hit) return hit;
    const checked = parseAndValidate(o.schema, query, rules);
    // Parse errors carry their own code (GRAPHQL_PARSE_FAILED, QUERY_TOO_LARGE); the rest are validation errors.
    const p: CheckedDocument = checked.errors ? { errors: checked.errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) } : { document: checked.document };
    prepared.set(query, p);
    return p;
  }

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  const badRequest = (res: ServerResponse, message: string) => send(res, 400, { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });

  return {
    /** Whether this request is a plain JSON POST the fast path answers like yoga would. */
    accepts(req: IncomingMessage): boolean {
      if (req.method !== 'POST' || !(req.headers['content-type'] ?? '').startsWith('application/json')) return false;
      const accept = req.headers.accept ?? '*/*';
      return !accept.includes('text/event-stream') && !accept.includes('application/graphql-response+json') && !accept.includes('multipart/mixed');
    },

    async handle(req: IncomingMessage, res: ServerResponse, context: GraphQLContext): Promise<void> {
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

      const p = prepare(query);
      if (p.errors) return send(res, 200, { errors: p.errors.map((e) => maskError(e, () => context.requestId, mask)) });
      const operation = getOperationAST(p.document, operationName ?? undefined);
      if (operation?.operation === 'subscription') {
        return badRequest(res, 'Subscriptions are served over WebSocket (graphql-ws) or SSE (Accept: text/event-stream).');
      }
      const refused = await chargeInto(context, p.document, operationName as string | null | undefined);
      if (refused) return send(res, 200, { errors: [maskError(refused, () => context.requestId, mask)] });
      let result: ExecutionResult;
      try {
        result = (await execute({
          schema: o.schema,
          document: p.document,
          variableValues: (variables as Record<string, unknown> | null | undefined) ?? undefined,
          operationName: (operationName as string | null | undefined) ?? undefined,
          contextValue: context,
        })) as ExecutionResult;
      } finally {
        await context.charge?.release();
      }
      send(res, 200, result.errors ? { ...result, errors: result.errors.map((e) => maskError(e, () => context.requestId, mask)) } : result);
    },
  };
}
