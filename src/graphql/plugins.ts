import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { KeyRevocations } from '../app/accounts/keyRevocations';
import type { GraphQLContext } from './context';
import { endOnRevocation } from './revocableStream';
import { boundedParse, checkRequestObjects, operationRules, withoutSuggestions } from './operationLimits';

/**
 * The operation limits of operationLimits.ts inside yoga (GET and SSE
 * requests): bounded parsing, variables nesting, the shared validation rules
 * (depth; no introspection in production) and, in production, no name
 * suggestions in validation errors.
 */
export function operationLimits(production: boolean): Plugin {
  const rules = operationRules(production);
  return {
    onParams({ params }) {
      const err = checkRequestObjects({ variables: params.variables, extensions: params.extensions });
      if (err) throw err;
    },
    onParse({ setParseFn }) {
      setParseFn((source) => boundedParse(typeof source === 'string' ? source : source.body));
    },
    onValidate({ setValidationFn, validateFn }) {
      setValidationFn((schema, document) => {
        const errors = validateFn(schema, document, rules);
        return production ? errors.map(withoutSuggestions) : errors;
      });
    },
  };
}

/** Subscriptions served by yoga (SSE) end with UNAUTHORIZED when the key they were opened with is revoked. */
export function endStreamsOnRevocation(revocations: KeyRevocations): Plugin {
  return {
    onSubscribe({ args }) {
      const keyId = (args.contextValue as unknown as GraphQLContext).principal?.keyId;
      if (!keyId) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) setResult(endOnRevocation(result as AsyncIterableIterator<ExecutionResult>, revocations, keyId));
        },
      };
    },
  };
}
