import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context';
import { maskError, type OnMasked } from './errors';
import { readBoundedBody } from './readBody';
import { chargeInto, costCeilingRefusal } from './operationCost';
import { documentCache } from './documentCache';
import { answerType, type AnswerType } from './acceptHeader';
import { answerOf, operationOf, paramsFromJson, paramsFromSearch, subscriptionRefusal, type GraphQLParams } from './httpRules';

export interface FastPathOptions {
  schema: GraphQLSchema;
  production: boolean;
  bodyLimitBytes: number;
  /** Logs what is masked as INTERNAL_ERROR. */
  onMasked?: OnMasked;
}

/** A subscription the fast path leaves to yoga (SSE): the request as it came, with the body it already read (POST). */
export interface HandOver {
  body?: Buffer;
}

/** How the fast path answers a request: its method and the JSON type it answers in. */
export interface FastRoute {
  method: 'GET' | 'POST';
  type: AnswerType;
}

/**
 * `/graphql` queries and mutations over JSON POSTs and GETs executed
 * straight on graphql-js: the body read once, parse and validation cached per
 * query text (documentCache, shared with yoga and graphql-ws), the answer
 * written directly. Every rule of the answer (parameters, operation, status)
 * is httpRules.ts's, which yoga follows too. What it does not answer
 * (SSE and multipart answers, forms, application/graphql bodies, GraphiQL,
 * other methods) goes to yoga.
 */
export function createGraphQLFastPath(o: FastPathOptions) {
  const mask = { production: o.production, onMasked: o.onMasked };
  const documents = documentCache(o.schema, o.production);

  /** Writes the answer (one write: headers and body); undefined, so a handler can `return send(…)`. */
  const send = (res: ServerResponse, result: ExecutionResult, type: AnswerType): undefined => {
    const a = answerOf(result, type);
    res.writeHead(a.status, { ...a.headers, 'Content-Length': Buffer.byteLength(a.body) });
    res.end(a.body);
    return undefined;
  };
  const refuse = (res: ServerResponse, error: GraphQLError, type: AnswerType) => send(res, { errors: [error] }, type);

  /** The operation's credits reserved, then graphql-js; the refusal or the result, errors masked. */
  async function run(
    context: GraphQLContext,
    document: DocumentNode,
    variables: GraphQLParams['variables'],
    operationName: string | undefined,
  ): Promise<ExecutionResult> {
    const refused = await chargeInto(context, document, operationName, variables);
    if (refused) return { errors: [maskError(refused, () => context.requestId, mask)] };
    let result: ExecutionResult;
    try {
      result = (await execute({ schema: o.schema, document, variableValues: variables ?? undefined, operationName, contextValue: context })) as ExecutionResult;
    } finally {
      await context.charge?.release();
    }
    return result.errors ? { ...result, errors: result.errors.map((e) => maskError(e, () => context.requestId, mask)) } : result;
  }

  /** The request's parameters (GET: its query string; POST: its JSON body, read bounded), or the error refusing them. */
  async function paramsOf(req: IncomingMessage, method: 'GET' | 'POST'): Promise<{ params: GraphQLParams | GraphQLError; body?: Buffer }> {
    if (method === 'GET') {
      const url = req.url ?? '';
      const q = url.indexOf('?');
      return { params: paramsFromSearch(q === -1 ? '' : url.substring(q + 1)) };
    }
    const body = await readBoundedBody(req, o.bodyLimitBytes);
    return { params: paramsFromJson(body.toString('utf8')), body };
  }

  return {
    /** How the fast path answers this request, or null when yoga does. */
    route(req: IncomingMessage): FastRoute | null {
      const method = req.method;
      if (method !== 'GET' && method !== 'POST') return null;
      if (method === 'POST' && (req.headers['content-type'] ?? '').split(';')[0]!.trim() !== 'application/json') return null;
      const type = answerType(req.headers.accept);
      if (type === 'stream') return null;
      // Accept naming nothing yoga serves: JSON (GraphQL over HTTP lets a server disregard Accept).
      return { method, type: type ?? 'application/json' };
    },

    /** Answers the request, or hands a subscription that may stream to yoga (with the body it read). */
    async handle(req: IncomingMessage, res: ServerResponse, context: GraphQLContext, route: FastRoute): Promise<HandOver | undefined> {
      const { type, method } = route;
      const { params, body } = await paramsOf(req, method);
      if (params instanceof GraphQLError) return refuse(res, params, type);
      const p = documents.parse(params.query);
      if (p.error)
        return refuse(
          res,
          maskError(p.error, () => context.requestId, mask),
          type,
        );
      const operation = operationOf(p.document, params.operationName, method);
      if (operation instanceof GraphQLError) return refuse(res, operation, type);
      const tooComplex = costCeilingRefusal(p.document, params.operationName, params.variables);
      if (tooComplex) return refuse(res, tooComplex, type);
      const invalid = documents.validate(p.document);
      if (invalid.length > 0) return send(res, { errors: invalid }, type);
      if (operation.operation === 'subscription') {
        // Subscriptions stream (SSE, with yoga; graphql-ws): a JSON answer cannot carry one.
        const refused = subscriptionRefusal(req.headers.accept);
        return refused ? refuse(res, refused, type) : { body };
      }
      return send(res, await run(context, p.document, params.variables, params.operationName ?? undefined), type);
    },
  };
}
