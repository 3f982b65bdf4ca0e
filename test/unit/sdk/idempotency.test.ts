import { openApiDocument } from '../../../src/rest/openapi/document';
import { IDEMPOTENT_POSTS } from '../../../sdk/src/rest';

/**
 * The SDK adds an Idempotency-Key to exactly the POST operations whose
 * OpenAPI entry declares the IdempotencyKey parameter: a new idempotent route,
 * or one that stops being, fails here until IDEMPOTENT_POSTS follows.
 */
test('behavior: IDEMPOTENT_POSTS lists exactly the POST operations of /v1/openapi.json that take Idempotency-Key', () => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
  const declared = Object.entries(doc.paths)
    .filter(([, ops]) => ops.post !== undefined && JSON.stringify(ops.post.parameters ?? []).includes('IdempotencyKey'))
    .map(([path]) => path)
    .sort();
  expect(declared.length).toBeGreaterThan(0);
  expect([...IDEMPOTENT_POSTS].sort()).toEqual(declared);
});
