import { GraphQLError, Kind, print, type VariableDefinitionNode } from 'graphql';
import { isServiceError, toServiceError, type ServiceError } from '../domain/errors/base';
import { withoutSuggestions } from './operationLimits';
import { errorStatus } from '../http/errorStatus';

/** A ServiceError as a GraphQL error: `extensions.code` equals the REST `error` code. */
export function toGraphQLError(e: ServiceError, requestId?: string, path?: readonly (string | number)[]): GraphQLError {
  const exposed = e.expose;
  return new GraphQLError(exposed ? e.message : 'An internal error occurred', {
    path,
    extensions: {
      code: e.code,
      status: errorStatus(e),
      details: exposed ? e.details : { requestId },
    },
  });
}

/** Told about every error that is masked as INTERNAL_ERROR, so the requestId a client reports is in a log line. */
export type OnMasked = (original: unknown, requestId: string | undefined) => void;

/** How a transport masks: whether it serves production (no name suggestions), and who logs what is masked. */
export interface MaskOptions {
  production?: boolean;
  onMasked?: OnMasked;
}

/**
 * The one exit of every GraphQL error on every transport: known service
 * errors pass with their code; graphql-js's own (parse, validation, variable
 * coercion) pass with a code and, in production, without "Did you mean"
 * suggestions; anything else is masked as INTERNAL_ERROR and reported to `onMasked`.
 */
/**
 * The variable definition a graphql-js error is about, when it is one of a
 * request's variables that could not be coerced to its type ("$id got
 * invalid value []"): the client's mistake, whatever the scalar threw.
 */
function variableOf(error: GraphQLError): VariableDefinitionNode | undefined {
  return error.nodes?.find((n): n is VariableDefinitionNode => n.kind === Kind.VARIABLE_DEFINITION);
}

export function maskError(error: unknown, requestIdOf: () => string | undefined, o: MaskOptions = {}): GraphQLError {
  const { onMasked } = o;
  const masked = (original: unknown, path?: readonly (string | number)[]) => {
    const e = toServiceError(original);
    const requestId = requestIdOf();
    if (errorStatus(e) >= 500) onMasked?.(original, requestId);
    return toGraphQLError(e, requestId, path);
  };
  if (error instanceof GraphQLError) {
    // Validation errors about variables ("$v is never used", "used in position expecting") carry their code already.
    const variable = error.extensions.code === undefined ? variableOf(error) : undefined;
    if (variable) {
      // A request error like any other bad input: 400 INVALID_REQUEST naming the variable and its type.
      return new GraphQLError(o.production ? withoutSuggestions(error).message : error.message, {
        nodes: error.nodes,
        extensions: {
          code: 'INVALID_REQUEST',
          status: 400,
          details: { issues: [{ path: ['variables', variable.variable.name.value], message: error.message, expected: print(variable.type) }] },
        },
      });
    }
    const original = error.originalError;
    if (original && isServiceError(original)) return toGraphQLError(original, requestIdOf(), error.path);
    if (!original) {
      // Parse, validation and coercion errors from graphql-js itself.
      return new GraphQLError(o.production ? withoutSuggestions(error).message : error.message, {
        nodes: error.nodes,
        path: error.path,
        extensions: { ...error.extensions, code: (error.extensions.code as string) ?? 'INVALID_REQUEST' },
      });
    }
    return masked(original, error.path);
  }
  return masked(error);
}
