import { GraphQLError, type ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { KeyRevocations } from '../app/accounts/keyRevocations';
import type { GraphQLContext } from './context';
import { credentialOf } from '../app/accounts/principal';
import { endOnRevocation } from './revocableStream';
import { maskError, type MaskOptions } from './errors';
import { subscriptionRefusal } from './httpRules';
import { documentCache, type DocumentCache } from './documentCache';
import { buildSchema } from './schema';
import { chargeInto, costCeilingRefusal } from './operationCost';
import { startedStream, type StreamObserver } from './streamMetrics';
import { holdingSlot, openSubscription, type StreamQuotas } from './streamQuotas';

/**
 * The operation limits of operationLimits.ts inside yoga (SSE, multipart,
 * forms, application/graphql bodies, and what the fast path hands over):
 * bounded parsing and the shared validation rules (depth;
 * no introspection in production), through the parse and validation cache
 * the fast path uses (documentCache; yoga's own cache is off). Yoga answers
 * validation errors before any result hook (so before maskError), hence the
 * cache strips suggestions in production.
 */
export function operationLimits(production: boolean, quotas: StreamQuotas, documents: DocumentCache = documentCache(buildSchema(), production)): Plugin {
  return {
    // Over the cost ceiling: refused once parsed, before validation (costCeilingRefusal).
    onParse({ context, setParseFn }) {
      const params = (context as { params?: { operationName?: string | null; variables?: Record<string, unknown> | null } }).params;
      setParseFn((source) => {
        const document = documents.yogaParse(typeof source === 'string' ? source : source.body);
        const tooComplex = costCeilingRefusal(document, params?.operationName, params?.variables);
        if (tooComplex) throw tooComplex;
        return document;
      });
    },
    // Who may call each field checked, cost checked and credits reserved before any resolver runs.
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as GraphQLContext;
      const refused = await chargeInto(context, args.document, args.operationName, args.variableValues);
      if (refused) return setResultAndStopExecution({ errors: [refused] });
      return { onExecuteDone: () => context.charge?.release() };
    },
    // Subscriptions (SSE) pass the same check; they pay where they start (chargeInto prepays nothing for them),
    // and hold one of the account's subscription slots (the WebSocket's too: openSubscription) until their stream ends.
    async onSubscribe({ args, setResultAndStopExecution, subscribeFn, setSubscribeFn }) {
      // Yoga would start the stream, then find no way to send it and answer 406 with an empty body (the stream left open).
      const needsStream = subscriptionRefusal((args.contextValue as { request?: Request }).request?.headers.get('accept'));
      if (needsStream) return setResultAndStopExecution({ errors: [needsStream] });
      const context = args.contextValue as unknown as GraphQLContext;
      const refused = await chargeInto(context, args.document, args.operationName, args.variableValues);
      if (refused) return setResultAndStopExecution({ errors: [refused] });
      const principal = context.principal;
      if (!principal) return;
      // The slot is taken where the subscription really starts (no later hook can stop it and leave the slot held);
      // a stream gives it back when it ends, any other answer (errors) at once.
      setSubscribeFn(async (subscribeArgs) => {
        const slot = openSubscription(quotas, principal);
        if (slot instanceof GraphQLError) return { errors: [slot] };
        try {
          const result = await subscribeFn(subscribeArgs);
          if (Symbol.asyncIterator in result) return holdingSlot(result, slot);
          slot.release();
          return result;
        } catch (e) {
          slot.release();
          throw e;
        }
      });
    },
    onValidate({ setValidationFn }) {
      setValidationFn((_schema, document) => documents.yogaValidate(document));
    },
  };
}

/** Subscriptions served by yoga (SSE) end with UNAUTHORIZED when the key they were opened with is revoked. */
export function endStreamsOnRevocation(revocations: KeyRevocations): Plugin {
  return {
    onSubscribe({ args }) {
      const principal = (args.contextValue as unknown as GraphQLContext).principal;
      const keyId = principal ? credentialOf(principal) : null;
      if (!keyId) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) setResult(endOnRevocation(result as AsyncIterableIterator<ExecutionResult>, revocations, keyId));
        },
      };
    },
  };
}

/** Subscriptions served by yoga (SSE) that start: their credits reported, their streams counted until they end (metrics). */
export function observeStreams(streams?: StreamObserver): Plugin {
  return {
    onSubscribe({ args }) {
      return {
        onSubscribeResult({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) return;
          setResult(
            startedStream(
              result as AsyncIterableIterator<ExecutionResult>,
              args.contextValue as unknown as GraphQLContext,
              args.document,
              args.operationName,
              'sse',
              streams,
            ),
          );
        },
      };
    },
  };
}

/**
 * Masks the errors of every result yoga produces with the request's id (yoga's
 * own maskError hook never sees the context), reporting each INTERNAL_ERROR to
 * `o.onMasked` so the id a client reports is in a log line.
 */
export function maskResultErrors(o: MaskOptions): Plugin {
  const mask = (context: unknown) => {
    const requestId = (context as GraphQLContext).requestId;
    return ({ result, setResult }: { result: ExecutionResult; setResult(r: ExecutionResult): void }) => {
      if (result.errors?.length) setResult({ ...result, errors: result.errors.map((e) => maskError(e, () => requestId, o)) });
    };
  };
  return {
    onExecute: ({ args }) => ({ onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, mask(args.contextValue)) }),
    onSubscribe: ({ args }) => ({ onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, mask(args.contextValue)) }),
  };
}
