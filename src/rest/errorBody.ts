import type { ServiceError } from '../domain/errors/base';
import { errorBodyExtras } from '../http/errorStatus';

/** docs/api-guide.md, "Errors": `{error, message, details}`; 500s are masked and carry the request id instead. */
export function errorBody(e: ServiceError, requestId: string): { error: string; message: string; details: Record<string, unknown> } {
  if (!e.expose) {
    return { error: e.code, message: 'An internal error occurred', details: { requestId } };
  }
  return { ...errorBodyExtras(e), error: e.code, message: e.message, details: e.details };
}
