import { createHash } from 'node:crypto';
import { createYoga, type GraphiQLOptions, type YogaServerInstance } from 'graphql-yoga';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLContext } from './context';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import { buildSchema } from './schema';
import { maskError } from './errors';
import { httpRules } from './httpRules';
import { endStreamsOnRevocation, maskResultErrors, observeStreams, operationLimits } from './plugins';
import type { StreamObserver } from './streamMetrics';
import { createClientAddress, type ClientAddress } from '../http/clientAddress';
import type { StreamQuotas } from './streamQuotas';
import { hostAllowed } from '../http/allowedHosts';
import type { AllowedHost } from '../http/allowedHosts';

export interface ServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  principal: GraphQLContext['principal'];
  requestId: string;
}

/**
 * GraphiQL's page with its scripts, styles and editor workers inlined
 * (@graphql-yoga/render-graphiql), so it works offline; yoga's default page
 * loads them from a CDN. The ~9 MB bundle is loaded on the first page view
 * and the page is kept per options.
 */
function renderLocalGraphiQL(): (opts: GraphiQLOptions) => string {
  const pages = new Map<string, { page: string; hashes: string[] }>();
  return (opts) => {
    const key = JSON.stringify(opts);
    let rendered = pages.get(key);
    if (rendered === undefined) {
      // Required lazily: production serves no GraphiQL and never loads the bundle.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { renderGraphiQL } = require('@graphql-yoga/render-graphiql') as typeof import('@graphql-yoga/render-graphiql');
      const page = renderGraphiQL(opts);
      rendered = { page, hashes: inlineScriptHashes(page) };
      if (pages.size < 8) pages.set(key, rendered);
    }
    renderedScriptHashes = rendered.hashes;
    return rendered.page;
  };
}

let renderedScriptHashes: string[] = [];

/** SHA-256 (base64) of each inline <script> of `page`, as a CSP script-src hash names it. */
function inlineScriptHashes(page: string): string[] {
  return [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) =>
    createHash('sha256')
      .update(m[1] ?? '', 'utf8')
      .digest('base64'),
  );
}

/** The inline-script hashes of the GraphiQL page rendered last (rendering is synchronous, before the answer's headers go out). */
export const graphiqlScriptHashes = (): string[] => renderedScriptHashes;

export type GraphQLServer = YogaServerInstance<ServerContext, GraphQLContext>;

/** GraphiQL's first tab: a query the development key can run at once (free plan, test networks), so the first Run answers data. */
export const GRAPHIQL_EXAMPLE_QUERY = `# Welcome! Press Run (Ctrl-Enter). The Headers tab holds the development API key.
# The best lending market for USDC on the test networks, and every rate:
{
  yields(asset: USDC) {
    best { chain protocol apy reasoning }
    rates { chain protocol asset apy }
  }
  usage { plan credits { used limit } }
}
`;

/**
 * Only a browser on this machine (behind a trusted proxy on this machine, the
 * client behind it decides), asking by an allowed name, gets the development
 * key written into the page: a page of another site re-pointed at this machine
 * (DNS rebinding) sends its own name as Host. The GraphQL door refuses such a
 * page already; this holds should yoga ever render the page where the door did
 * not expect it.
 */
const mayHoldKey = (req: IncomingMessage | undefined, clientAddress: ClientAddress, allowedHosts: readonly AllowedHost[]): boolean => {
  const ip = req ? clientAddress(req) : '';
  return (ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.')) && hostAllowed(req?.headers.host, allowedHosts);
};

/**
 * graphql-yoga over the Pothos schema; GraphiQL and introspection outside
 * production only. `graphiqlApiKey` (the development key, in development)
 * pre-fills GraphiQL's Headers tab, for requests from this machine by an
 * allowed Host only.
 */
export function createGraphQLServer(o: {
  deps: AppDeps;
  logger: Logger;
  production: boolean;
  streams?: StreamObserver;
  graphiqlApiKey?: string;
  clientAddress?: ClientAddress;
  quotas: StreamQuotas;
  /** Host header values a page holding the key is rendered for (src/http/allowedHosts.ts). */
  allowedHosts?: readonly AllowedHost[];
}): GraphQLServer {
  const clientAddress = o.clientAddress ?? createClientAddress([]);
  return createYoga<ServerContext, GraphQLContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: o.production
      ? false
      : (_request, ctx) => ({
          title: 'Wallet & Intent API',
          defaultQuery: GRAPHIQL_EXAMPLE_QUERY,
          ...(o.graphiqlApiKey && mayHoldKey(ctx?.req, clientAddress, o.allowedHosts ?? [])
            ? {
                headers: JSON.stringify({ Authorization: `Bearer ${o.graphiqlApiKey}` }, null, 2),
                defaultEditorToolsVisibility: 'headers' as const,
                shouldPersistHeaders: false,
              }
            : {}),
        }),
    ...(o.production ? {} : { renderGraphiQL: renderLocalGraphiQL() }),
    landingPage: false,
    logging: false,
    batching: false,
    // operationLimits parses and validates through documentCache, the fast path's cache.
    parserAndValidationCache: false,
    maskedErrors: { maskError: (error) => maskError(error, () => undefined, { production: o.production }) },
    context: ({ principal, requestId, request }) => ({
      deps: o.deps,
      principal,
      requestId,
      idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
    }),
    plugins: [
      // GraphQL over HTTP as the fast path answers it (parameters, operation, status): one set of rules.
      httpRules(),
      operationLimits(o.production, o.quotas),
      endStreamsOnRevocation(o.deps.revocations),
      observeStreams(o.streams),
      maskResultErrors({ production: o.production, onMasked: (err, requestId) => o.logger.error({ err, requestId }, 'graphql operation failed') }),
    ],
  });
}
