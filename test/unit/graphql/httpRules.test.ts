import { GraphQLError, parse } from 'graphql';
import { answerOf, checkParams, operationOf, paramsFromJson, paramsFromSearch, subscriptionRefusal } from '../../../src/graphql/httpRules';

/**
 * The GraphQL-over-HTTP rules both /graphql answerers follow (the fast path
 * calls them, yoga through the httpRules plugin); the differential e2e test
 * checks that the two answer alike, these check the rules themselves.
 */
const JSON_TYPE = 'application/json';
const STRICT = 'application/graphql-response+json';
const requestError = new GraphQLError('Variable "$v" got invalid value 1', { extensions: { code: 'INVALID_REQUEST', status: 400 } });

describe('answerOf: the status of a result, by answer type', () => {
  test.each([
    ['data with field errors', 200, 200, { data: { a: null }, errors: [requestError] }],
    ['data null', 200, 200, { data: null, errors: [new GraphQLError('boom', { extensions: { code: 'WALLET_NOT_FOUND', status: 404 } })] }],
    ['no data: a request error', 200, 400, { errors: [requestError] }],
    ['no data, the error carries a status', 200, 429, { errors: [new GraphQLError('no', { extensions: { code: 'RATE_LIMIT_EXCEEDED', status: 429 } })] }],
    ['no data, no status on the error', 200, 400, { errors: [new GraphQLError('too complex', { extensions: { code: 'QUERY_TOO_COMPLEX' } })] }],
    ['a malformed request', 400, 400, { errors: [checkParams([]) as GraphQLError] }],
    [
      "yoga's annotation of a parse error (http.spec) is not an HTTP status",
      200,
      400,
      { errors: [new GraphQLError('x', { extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400, spec: true } } })] },
    ],
  ])('behavior: %s → %p under application/json, %p under graphql-response+json', (_name, json, strict, result) => {
    expect(answerOf(result, JSON_TYPE).status).toBe(json);
    expect(answerOf(result, STRICT).status).toBe(strict);
  });

  test('behavior: a mutation over GET is 405 with Allow: POST; Allow is sent with nothing else', () => {
    const get = operationOf(parse('mutation { a }'), undefined, 'GET') as GraphQLError;
    expect(answerOf({ errors: [get] }, STRICT)).toMatchObject({ status: 405, headers: { Allow: 'POST', 'Content-Type': `${STRICT}; charset=utf-8` } });
    expect(answerOf({ errors: [requestError] }, STRICT).headers.Allow).toBeUndefined();
  });

  test('error: what is only for the transport is never sent (http, unexpected, originalError)', () => {
    const e = new GraphQLError('x', {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 }, unexpected: true, originalError: { name: 'SyntaxError', message: 'Unexpected end' } },
    });
    const body = JSON.parse(answerOf({ errors: [e], extensions: { http: { status: 400 }, cost: 1 } }, JSON_TYPE).body);
    expect(body).toEqual({ errors: [{ message: 'x', extensions: { code: 'BAD_REQUEST' } }], extensions: { cost: 1 } });
  });
});

describe('parameters: one reading for GET, JSON and form bodies', () => {
  const code = (v: unknown) => (v instanceof GraphQLError ? v.extensions : null);

  test('error: each malformed parameter is a 400 BAD_REQUEST naming it', () => {
    expect(code(paramsFromJson('{"query": '))).toMatchObject({ code: 'BAD_REQUEST', details: { issues: [{ path: ['body'] }] } });
    expect((paramsFromJson('{"query": ') as GraphQLError).message).toBe('POST body sent invalid JSON.');
    for (const [body, param] of [
      [{ variables: {} }, 'query'],
      [{ query: 7 }, 'query'],
      [{ query: '{ a }', variables: '[]' }, 'variables'],
      [{ query: '{ a }', variables: [] }, 'variables'],
      [{ query: '{ a }', extensions: 1 }, 'extensions'],
      [{ query: '{ a }', operationName: 1 }, 'operationName'],
      [{ query: '{ a }', foo: 1 }, 'foo'],
    ] as const) {
      expect(code(checkParams(body))).toMatchObject({ code: 'BAD_REQUEST', status: 400, http: { status: 400 }, details: { issues: [{ path: [param] }] } });
    }
    expect(code(paramsFromSearch('query=%7Ba%7D&variables=%7Bu%3A'))).toMatchObject({ code: 'BAD_REQUEST', details: { issues: [{ path: ['variables'] }] } });
  });

  test('behavior: parameters sent as null are parameters not sent; GET reads the first value of each name', () => {
    expect(checkParams({ query: '{ a }', variables: null, operationName: null, foo: null })).toEqual({
      query: '{ a }',
      variables: undefined,
      operationName: undefined,
      extensions: undefined,
    });
    expect(paramsFromSearch('query=%7B+a+%7D&query=x&variables=%7B%22u%22%3A1%7D&operationName=')).toEqual({
      query: '{ a }',
      variables: { u: 1 },
      operationName: undefined,
      extensions: undefined,
    });
  });

  test('error: variables nested past the limit are 400 INVALID_REQUEST, whatever the answer type', () => {
    let v: unknown = 1;
    for (let i = 0; i < 40; i++) v = { v };
    const e = checkParams({ query: '{ a }', variables: { v } }) as GraphQLError;
    expect(e.extensions.code).toBe('INVALID_REQUEST');
    expect(answerOf({ errors: [e] }, JSON_TYPE).status).toBe(400);
  });
});

describe('operationOf and subscriptions', () => {
  test.each([
    ['query A { a } query B { a }', undefined, 'Must provide operation name if query contains multiple operations.'],
    ['query A { a }', 'Z', 'Unknown operation named "Z".'],
    ['fragment F on Query { a }', undefined, 'Must provide an operation.'],
  ])('error: %p (operationName %p) → OPERATION_RESOLUTION_FAILURE: %p', (query, name, message) => {
    const e = operationOf(parse(query), name, 'POST') as GraphQLError;
    expect(e.message).toBe(message);
    expect(e.extensions).toMatchObject({ code: 'OPERATION_RESOLUTION_FAILURE', details: { issues: [{ path: ['operationName'], message }] } });
  });

  test('behavior: a subscription streams only when Accept names text/event-stream', () => {
    for (const accept of ['text/event-stream', 'application/json, text/event-stream']) expect(subscriptionRefusal(accept)).toBeNull();
    for (const accept of [undefined, '', '*/*', 'text/*', 'application/json', 'text/event-stream; charset=latin1'])
      expect(subscriptionRefusal(accept)?.extensions.code).toBe('BAD_REQUEST');
  });
});
