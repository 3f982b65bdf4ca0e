import { ServiceApiError, isServiceApiError } from '../../../sdk/src';
import { retryAfterSeconds } from '../../../sdk/src/errors';

test('behavior: ServiceApiError.fromResponse reads the service error body, X-Request-Id and Retry-After', () => {
  const res = new Response(null, { status: 429, headers: { 'X-Request-Id': 'r-1', 'Retry-After': '7' } });
  const e = ServiceApiError.fromResponse(res, { error: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests', details: { limit: 100 } }, { idempotencyKey: 'k' });
  expect(e).toBeInstanceOf(Error);
  expect(isServiceApiError(e, 'RATE_LIMIT_EXCEEDED')).toBe(true);
  expect(isServiceApiError(e, 'TIMEOUT')).toBe(false);
  expect({ ...e, message: e.message }).toMatchObject({
    code: 'RATE_LIMIT_EXCEEDED',
    status: 429,
    message: 'Too many requests',
    details: { limit: 100 },
    requestId: 'r-1',
    retryAfterSeconds: 7,
    idempotencyKey: 'k',
  });
});

test("behavior: a body that is not the service's (a proxy's HTML) still gives a typed error: HTTP_<status>, the text as message; a 500 names details.requestId", () => {
  const e = ServiceApiError.fromResponse(new Response(null, { status: 502 }), '<html>bad gateway</html>');
  expect([e.code, e.status, e.message]).toEqual(['HTTP_502', 502, '<html>bad gateway</html>']);
  const i = ServiceApiError.fromResponse(new Response(null, { status: 500 }), {
    error: 'INTERNAL_ERROR',
    message: 'Internal error',
    details: { requestId: 'abc' },
  });
  expect(i.requestId).toBe('abc');
});

test('behavior: GraphQL errors: the first one names the code; its other extensions are the details', () => {
  const e = ServiceApiError.fromGraphQL([
    { message: 'No wallet', path: ['wallet'], extensions: { code: 'WALLET_NOT_FOUND', userId: 'x' } },
    { message: 'other' },
  ]);
  expect([e.code, e.status, e.message, e.details, e.graphqlErrors?.length]).toEqual(['WALLET_NOT_FOUND', 200, 'No wallet', { userId: 'x' }, 2]);
});

test.each([
  ['5', 5],
  [' 0 ', 0],
  ['Wed, 01 Jan 2025 00:00:10 GMT', 10],
  ['soon', undefined],
  [null, undefined],
])('behavior: Retry-After %p → %p seconds', (value, seconds) => {
  expect(retryAfterSeconds(value, Date.parse('2025-01-01T00:00:00Z'))).toBe(seconds);
});
