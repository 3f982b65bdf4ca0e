import { ServiceError } from '../../../src/domain/errors/base';
import { rateLimitExceeded, unauthorized } from '../../../src/domain/errors/auth';
import { methodNotAllowed, invalidRequest } from '../../../src/domain/errors/request';
import { ERROR_STATUS, errorBodyExtras, errorHeaders, errorStatus } from '../../../src/http/errorStatus';

/** The doors' one mapping of a ServiceError to HTTP: the domain's error carries facts, the mapping the status, headers and body extras. */

const offer = { header: 'eyJ4NDAyVmVyc2lvbiI6Mn0=', v1: { x402Version: 1, accepts: [{ network: 'base-sepolia' }] } };

test('behavior: a domain error carries no HTTP of its own; the mapping gives its status by code', () => {
  const e = invalidRequest([{ path: 'amount', message: 'amount is required' }]);
  expect(Object.keys(e)).not.toEqual(expect.arrayContaining(['status']));
  expect('headers' in e || 'bodyExtras' in e || 'status' in e).toBe(false);
  expect(errorStatus(e)).toBe(400);
  expect(errorStatus(new ServiceError('INTERNAL_ERROR', 'x'))).toBe(500);
  expect(Object.entries(ERROR_STATUS).every(([code, status]) => errorStatus(new ServiceError(code as keyof typeof ERROR_STATUS, 'x')) === status)).toBe(true);
});

test('behavior: the facts become the headers the doors answered before (WWW-Authenticate, Retry-After, Allow, PAYMENT-REQUIRED, PAYMENT-RESPONSE), quota headers last', () => {
  expect(errorHeaders(unauthorized())).toEqual({ 'WWW-Authenticate': 'Bearer' });
  const limited = rateLimitExceeded(60, 1_700_000_000, 7);
  Object.assign(limited.quotaHeaders, { 'X-RateLimit-Limit': '60' });
  expect(Object.entries(errorHeaders(limited))).toEqual([
    ['Retry-After', '7'],
    ['X-RateLimit-Limit', '60'],
  ]);
  expect(errorHeaders(methodNotAllowed('PUT', ['GET', 'POST']))).toEqual({ Allow: 'GET, POST' });
  const busy = new ServiceError('PAYMENT_INVALID', 'busy', {
    paymentOffer: offer,
    retryAfterSeconds: 1,
    paymentSettlement: { name: 'PAYMENT-RESPONSE', value: 'e30=' },
    details: { reason: 'payer_busy' },
  });
  expect(Object.entries(errorHeaders(busy))).toEqual([
    ['PAYMENT-REQUIRED', offer.header],
    ['WWW-Authenticate', 'Bearer'],
    ['PAYMENT-RESPONSE', 'e30='],
    ['Retry-After', '1'],
  ]);
  expect(errorStatus(busy)).toBe(402);
});

test("behavior: a payment error's body carries the offer's v1 fields beside the error object; other errors carry none", () => {
  expect(errorBodyExtras(new ServiceError('PAYMENT_REQUIRED', 'pay', { paymentOffer: offer }))).toEqual(offer.v1);
  expect(errorBodyExtras(unauthorized())).toEqual({});
});
