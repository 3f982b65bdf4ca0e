import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { buildSchema } from '../../../src/graphql/schema';
import { createGraphQLFastPath } from '../../../src/graphql/fastPath';
import { answerType, acceptsAnyOf } from '../../../src/graphql/acceptHeader';
import { searchParams } from '../../../src/graphql/httpRules';
import { documentCache } from '../../../src/graphql/documentCache';

/**
 * Which /graphql requests the fast path answers (and as what), and the one
 * parse and validation cache every HTTP transport shares.
 */
const fastPath = createGraphQLFastPath({ schema: buildSchema(), production: true, bodyLimitBytes: 1024 * 1024 });
const req = (method: string, headers: Record<string, string> = {}) => ({ method, headers, url: '/graphql' }) as unknown as IncomingMessage;

describe('answerType: the JSON type yoga answers a query with, by its own Accept rule', () => {
  test.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['APPLICATION/GRAPHQL-RESPONSE+JSON', 'application/graphql-response+json'],
    // The first entry that names a JSON type decides (q is not read, as yoga does not).
    ['application/graphql-response+json, application/json;q=0.9', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    ['application/json, text/event-stream', 'application/json'],
    // Only utf-8 is served: such an entry counts for nothing.
    ['application/graphql-response+json; charset=latin1', null],
    ['application/xml', null],
    ['text/html', null],
    ['text/event-stream', 'stream'],
    ['multipart/mixed', 'stream'],
    ['text/*', 'stream'],
  ])('behavior: Accept %p → %p', (accept, type) => {
    expect(answerType(accept)).toBe(type);
  });

  test('behavior: acceptsAnyOf reads Accept with the same parser (no Accept, or only spaces, accepts anything)', () => {
    expect(acceptsAnyOf(undefined, ['application/json'])).toBe(true);
    expect(acceptsAnyOf('   ', ['application/json'])).toBe(true);
    expect(answerType('   ')).toBe('application/json');
    expect(acceptsAnyOf('text/*', ['text/event-stream'])).toBe(true);
    expect(acceptsAnyOf('application/json; charset=latin1', ['application/json'])).toBe(false);
  });
});

describe('route: what the fast path answers, and how', () => {
  test('behavior: a JSON POST is answered by the fast path in the JSON type yoga would pick, JSON when Accept names nothing yoga serves', () => {
    for (const [accept, type] of [
      [undefined, 'application/json'],
      ['*/*', 'application/json'],
      ['application/json', 'application/json'],
      ['application/xml', 'application/json'],
      ['APPLICATION/GRAPHQL-RESPONSE+JSON', 'application/graphql-response+json'],
      ['application/json, application/graphql-response+json', 'application/json'],
    ] as const) {
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (accept !== undefined) headers.accept = accept;
      expect(fastPath.route(req('POST', headers))).toEqual({ method: 'POST', type });
    }
  });

  test('behavior: GET is answered by the fast path, JSON when Accept names nothing yoga serves', () => {
    expect(fastPath.route(req('GET'))).toEqual({ type: 'application/json', method: 'GET' });
    expect(fastPath.route(req('GET', { accept: 'application/graphql-response+json, application/json;q=0.9' }))).toEqual({
      type: 'application/graphql-response+json',
      method: 'GET',
    });
    expect(fastPath.route(req('GET', { accept: 'text/html' }))).toEqual({ type: 'application/json', method: 'GET' });
  });

  test('behavior: streams (SSE, multipart), other body types and other methods stay with yoga', () => {
    expect(fastPath.route(req('GET', { accept: 'text/event-stream' }))).toBeNull();
    expect(fastPath.route(req('POST', { 'content-type': 'application/json', accept: 'text/event-stream' }))).toBeNull();
    expect(fastPath.route(req('POST', { 'content-type': 'application/json', accept: 'multipart/mixed' }))).toBeNull();
    expect(fastPath.route(req('POST', { 'content-type': 'application/graphql', accept: 'application/graphql-response+json' }))).toBeNull();
    expect(fastPath.route(req('POST', { 'content-type': 'application/x-www-form-urlencoded' }))).toBeNull();
    expect(fastPath.route(req('PUT', { 'content-type': 'application/json' }))).toBeNull();
    expect(fastPath.route(req('HEAD'))).toBeNull();
  });
});

describe('documentCache: one parse and validation cache for every transport', () => {
  const cache = documentCache(buildSchema(), true);

  test('behavior: the fast path, yoga and graphql-ws get the same instance for a schema and production flag', () => {
    expect(documentCache(buildSchema(), true)).toBe(cache);
    expect(documentCache(buildSchema(), false)).not.toBe(cache);
  });

  test('behavior: a query text is parsed once; yoga gets the very document the fast path parsed', () => {
    const q = '{ yields(asset: USDC) { best { apy } } __typename }';
    expect(cache.has(q)).toBe(false);
    const p = cache.parse(q);
    expect(cache.has(q)).toBe(true);
    expect(cache.parse(q)).toBe(p);
    expect(cache.yogaParse(q)).toBe(p.document);
    expect(cache.validate(p.document!)).toEqual([]);
  });

  test('behavior: parse and validation errors carry their codes; yoga gets copies it may annotate without touching the cached ones', () => {
    const bad = cache.parse('{ yields(');
    expect(bad.error?.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    let thrown: unknown;
    try {
      cache.yogaParse('{ yields(');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).not.toBe(bad.error);
    (thrown as { extensions: Record<string, unknown> }).extensions.http = { status: 400 };
    expect(bad.error?.extensions.http).toBeUndefined();

    const doc = cache.parse('{ walet { id } }').document!;
    const errors = cache.validate(doc);
    expect(errors.map((e) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    // Production: no "Did you mean" suggestions.
    expect(errors[0]!.message).not.toMatch(/Did you mean/);
    const copies = cache.yogaValidate(doc);
    expect(copies[0]).not.toBe(errors[0]);
    expect(copies[0]!.toJSON()).toEqual(errors[0]!.toJSON());
  });

  test('error: a document graphql-js throws on while validating is a validation error for the fast path and a thrown error for yoga (as before)', () => {
    const doc = cache.parse('subscription($b: Boolean!) { intentUpdated(id: "intent_0") @include(if: $b) { id } }').document!;
    expect(cache.validate(doc).map((e) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(() => cache.yogaValidate(doc)).toThrow(/not provided a runtime value/);
  });
});

describe('searchParams: the GET query string read as URLSearchParams reads it', () => {
  test('property: the first value of every name equals URLSearchParams.get', () => {
    const part = fc.stringMatching(/^[a-zA-Z0-9%+=&;{}":, ._~-]{0,24}$/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('query', 'variables', 'operationName', 'extensions', 'x'), part), { maxLength: 6 }),
        fc.string({ maxLength: 12 }),
        (pairs, tail) => {
          const qs = pairs.map(([k, v]) => `${k}=${v}`).join('&') + tail;
          const ours = searchParams(qs);
          const theirs = new URLSearchParams(qs);
          for (const name of ['query', 'variables', 'operationName', 'extensions', 'x']) expect(ours.get(name)).toBe(theirs.get(name));
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });

  test('behavior: escapes, + as space and a malformed escape', () => {
    expect(searchParams('query=%7B+__typename+%7D&query=second').get('query')).toBe('{ __typename }');
    expect(searchParams('query=%E0%A4%A&variables=%7B%7D').get('variables')).toBe('{}');
    expect(searchParams('query=%FF').get('query')).toBe(new URLSearchParams('query=%FF').get('query'));
  });
});
