import { ServiceError } from './base';

/** One problem with one field of a request; `path` is dotted (`metadata.$where`). */
export interface FieldIssue {
  path: string;
  message: string;
  code?: string;
}

export const invalidRequest = (issues: FieldIssue[], message?: string): ServiceError =>
  new ServiceError('INVALID_REQUEST', message ?? `Invalid request: ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}`, {
    details: { issues },
  });

export const notFound = (what = 'Route'): ServiceError => new ServiceError('NOT_FOUND', `${what} not found`);

export const methodNotAllowed = (method: string, allowed: string[]): ServiceError =>
  new ServiceError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed here`, {
    details: { allowed },
  });

export const payloadTooLarge = (limitBytes: number): ServiceError =>
  new ServiceError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`, { details: { limitBytes } });

export const unsupportedMediaType = (got: string | undefined): ServiceError =>
  new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json', {
    details: { contentType: got ?? null, expected: 'application/json' },
  });

export const idempotencyConflict = (key: string): ServiceError =>
  new ServiceError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used with a different request', {
    details: { idempotencyKey: key },
  });

export const serviceUnavailable = (message = 'Service temporarily unavailable'): ServiceError => new ServiceError('SERVICE_UNAVAILABLE', message);
