import { GraphQLError } from 'graphql';
import { isServiceError, toServiceError, type ServiceError } from '../domain/errors/base';

/** A ServiceError as a GraphQL error: `extensions.code` equals the REST `error` code. */
export function toGraphQLError(e: ServiceError, requestId?: string, path?: readonly (string | number)[]): GraphQLError {
  const exposed = e.expose;
  return new GraphQLError(exposed ? e.message : 'An internal error occurred', {
    path,
    extensions: {
      code: e.code,
      status: e.status,
      details: exposed ? e.details : { requestId },
    },
  });
}

/** yoga's maskError: known service errors pass with their code; anything else is masked as INTERNAL_ERROR. */
export function maskError(error: unknown, requestIdOf: () => string | undefined): GraphQLError {
  if (error instanceof GraphQLError) {
    const original = error.originalError;
    if (original && isServiceError(original)) return toGraphQLError(original, requestIdOf(), error.path);
    if (!original) {
      // Parse and validation errors from graphql-js itself.
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        path: error.path,
        extensions: { ...error.extensions, code: (error.extensions.code as string) ?? 'INVALID_REQUEST' },
      });
    }
    return toGraphQLError(toServiceError(original), requestIdOf(), error.path);
  }
  return toGraphQLError(toServiceError(error), requestIdOf());
}
