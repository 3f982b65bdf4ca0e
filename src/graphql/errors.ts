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

/** Told about every error that is masked as INTERNAL_ERROR, so the requestId a client reports is in a log line. */
export type OnMasked = (original: unknown, requestId: string | undefined) => void;

/** Known service errors pass with their code; anything else is masked as INTERNAL_ERROR (and reported to `onMasked`). */
export function maskError(error: unknown, requestIdOf: () => string | undefined, onMasked?: OnMasked): GraphQLError {
  const masked = (original: unknown, path?: readonly (string | number)[]) => {
    const e = toServiceError(original);
    const requestId = requestIdOf();
    if (e.status >= 500) onMasked?.(original, requestId);
    return toGraphQLError(e, requestId, path);
  };
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
    return masked(original, error.path);
  }
  return masked(error);
}
