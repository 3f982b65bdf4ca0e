import type { DocumentNode, ExecutionResult } from 'graphql';
import { CREDIT_COST } from '../domain/plans';
import type { GraphQLContext } from './context';
import { operationCost } from './operationCost';

/** The transports a subscription is served over. */
export type StreamTransport = 'websocket' | 'sse';

/** Told when a subscription's result stream starts and when it ends (metrics); must not throw. */
export interface StreamObserver {
  opened(transport: StreamTransport): void;
  closed(transport: StreamTransport): void;
}

type Stream = AsyncIterableIterator<ExecutionResult>;

/**
 * `source` reported open to `observer` until it ends, whichever way: its last
 * result read, `return()` (the client completed it, or its socket or request
 * closed) or `throw()`. Reported closed exactly once.
 */
export function observeStream(stream: AsyncIterable<ExecutionResult>, transport: StreamTransport, observer: StreamObserver): Stream {
  const source = stream[Symbol.asyncIterator]();
  observer.opened(transport);
  let open = true;
  const end = () => {
    if (!open) return;
    open = false;
    observer.closed(transport);
  };
  const it: Stream = {
    async next() {
      try {
        const r = await source.next();
        if (r.done) end();
        return r;
      } catch (e) {
        end();
        throw e;
      }
    },
    async return(value?: unknown) {
      end();
      return (await source.return?.(value)) ?? { value: undefined, done: true };
    },
    async throw(e?: unknown) {
      end();
      if (source.throw) return source.throw(e);
      throw e;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

/**
 * A subscription that started was charged where it started (its resolver, or
 * the shared stream it joined), API keys only: reported to the deps' credits
 * hook, as a query's fields are when they succeed (operationCost.ts).
 */
export function reportSubscriptionCredits(context: GraphQLContext, document: DocumentNode, operationName?: string | null): void {
  const report = context.deps.onCreditsCharged;
  if (!report || context.principal?.via !== 'apiKey') return;
  for (const op of operationCost(document, operationName).operations) if (CREDIT_COST[op] > 0) report(op, CREDIT_COST[op]);
}

/** What a transport does with a subscription's result: its credits reported, and the stream counted while open. */
export function startedStream<S extends AsyncIterable<ExecutionResult>>(
  result: S,
  context: GraphQLContext,
  document: DocumentNode,
  operationName: string | null | undefined,
  transport: StreamTransport,
  observer?: StreamObserver,
): S | Stream {
  reportSubscriptionCredits(context, document, operationName);
  return observer ? observeStream(result, transport, observer) : result;
}
