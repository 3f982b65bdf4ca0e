import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '../../../src/rest/openapi';
import { ERROR_STATUS, type ErrorCode } from '../../../src/domain/errors/base';
import { PAYABLE_OPERATIONS, type Operation } from '../../../src/domain/plans';

/**
 * The OpenAPI document is valid OpenAPI 3.1 with no problem for an outside
 * linter (Redocly CLI, its recommended rules with every warning an error:
 * structure, operationIds, 4xx answers, examples checked against their
 * schemas, …), and says for every operation what the service's answers
 * carry: each status with the codes of that status only, the error body,
 * and the headers.
 */

const doc = openApiDocument() as any;
const operations = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.entries(ops).map(([method, op]: [string, any]) => ({ path, method, op })));
const header = (ref: { $ref: string }) => doc.components.headers[ref.$ref.split('/').pop()!];

describe('OpenAPI document', () => {
  it('behavior: npx @redocly/cli lint (recommended-strict) reports 0 problems', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const cli = require.resolve('@redocly/cli/bin/cli.js');
      const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json', '--extends=recommended-strict'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((e: { stdout: string; stderr: string }) => e);
      const report = JSON.parse(run.stdout);
      expect(report.problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('behavior: every operation has a unique operationId, a summary, a description and a tag', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations) {
      expect({ id: op.operationId, summary: !!op.summary, description: !!op.description, tags: op.tags?.length }).toEqual({ id: op.operationId, summary: true, description: true, tags: 1 });
    }
  });

  it('behavior: request bodies are required, typed by a component, with examples', () => {
    for (const { method, path, op } of operations.filter((o) => o.method === 'post')) {
      const media = op.requestBody?.content?.['application/json'];
      expect({ op: `${method} ${path}`, required: op.requestBody?.required, ref: typeof media?.schema?.$ref, examples: Object.keys(media?.examples ?? {}).length > 0 }).toEqual({
        op: `${method} ${path}`,
        required: true,
        ref: 'string',
        examples: true,
      });
    }
  });

  it('behavior: every 2xx body is a component; every error answer is the error body narrowed to codes of its own status', () => {
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        const schema = response.content['application/json'].schema;
        const where = `${method.toUpperCase()} ${path} ${status}`;
        if (Number(status) < 300) {
          expect({ where, ref: schema.$ref?.startsWith('#/components/schemas/') }).toEqual({ where, ref: true });
          continue;
        }
        expect({ where, base: schema.allOf[0].$ref }).toEqual({ where, base: `#/components/schemas/${status === '402' ? 'PaymentError' : 'Error'}` });
        const codes: ErrorCode[] = schema.allOf[1].properties.error.enum;
        expect({ where, statuses: [...new Set(codes.map((c) => ERROR_STATUS[c]))] }).toEqual({ where, statuses: [Number(status)] });
        expect({ where, examples: Object.keys(response.content['application/json'].examples).sort() }).toEqual({ where, examples: [...codes].sort() });
      }
    }
  });

  it('behavior: what every operation can answer: 401, 403, 429, 500, 503; bodies add 400, 413, 415; payable reads add 402', () => {
    for (const { method, path, op } of operations) {
      const statuses = Object.keys(op.responses).map(Number);
      const expected = [401, 403, 429, 500, 503, ...(method === 'post' ? [400, 413, 415] : []), ...(PAYABLE_OPERATIONS.has(op.operationId as Operation) ? [402] : [])];
      expect({ op: `${method} ${path}`, missing: expected.filter((s) => !statuses.includes(s)) }).toEqual({ op: `${method} ${path}`, missing: [] });
    }
  });

  it('behavior: the headers: X-Request-Id on every answer, WWW-Authenticate on 401/402, Retry-After on 429, PAYMENT-REQUIRED on 402, rate headers on key-only successes', () => {
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        const required = Object.entries(response.headers ?? {})
          .filter(([, ref]) => header(ref as { $ref: string }).required)
          .map(([name]) => name);
        const where = `${method.toUpperCase()} ${path} ${status}`;
        const must = [
          'X-Request-Id',
          ...(status === '401' || status === '402' ? ['WWW-Authenticate'] : []),
          ...(status === '429' ? ['Retry-After'] : []),
          ...(status === '402' ? ['PAYMENT-REQUIRED'] : []),
          ...(Number(status) < 300 && !PAYABLE_OPERATIONS.has(op.operationId as Operation) ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] : []),
        ];
        expect({ where, missing: must.filter((h) => !required.includes(h)) }).toEqual({ where, missing: [] });
      }
    }
    expect(Object.keys(doc.paths['/intents'].post.responses['201'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'Idempotent-Replayed']));
    expect(doc.paths['/wallets'].post.parameters.map((p: any) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
  });

  it('behavior: the intent body is a variant per action, chosen by action', () => {
    const body = doc.components.schemas.CreateIntentRequest;
    expect(body.discriminator.propertyName).toBe('action');
    const variants = body.oneOf.map((v: any) => doc.components.schemas[v.$ref.split('/').pop()]);
    expect(variants.map((v: any) => [v.properties.action.enum[0], [...v.required].sort()])).toEqual([
      ['lend', ['action', 'amount', 'walletId']],
      ['withdraw', ['action', 'amount', 'chain', 'walletId']],
      ['bridge', ['action', 'amount', 'fromChain', 'toChain', 'walletId']],
    ]);
  });
});
