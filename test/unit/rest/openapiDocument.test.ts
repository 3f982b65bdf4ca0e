import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import { openApiDocument } from '../../../src/rest/openapi/document';
import { createPolicySchema, updatePolicySchema } from '../../../src/domain/schemas/policy';
import { CHAIN_NAMES, LENDING_PROTOCOLS } from '../../../src/domain/chains';
import { INTENT_ACTIONS } from '../../../src/domain/intent';
import type { ErrorCode } from '../../../src/domain/errors/base';
import { ERROR_STATUS } from '../../../src/http/errorStatus';
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
const operations = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
  Object.entries(ops).map(([method, op]: [string, any]) => ({ path, method, op })),
);
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
      expect({ id: op.operationId, summary: !!op.summary, description: !!op.description, tags: op.tags?.length }).toEqual({
        id: op.operationId,
        summary: true,
        description: true,
        tags: 1,
      });
    }
  });

  it('behavior: request bodies (POST and PUT) are required, typed by a component, with examples; GET and DELETE take none, nor do the action POSTs named here', () => {
    /** POSTs that act on the resource of their path and take no body (like GitHub's `POST …/cancel`). */
    const bodiless = new Set([
      'post /intents/{intentId}/cancel',
      'post /webhooks/{webhookId}/test',
      'post /standing-intents/{standingIntentId}/pause',
      'post /standing-intents/{standingIntentId}/resume',
    ]);
    for (const { method, path, op } of operations.filter((o) => o.method === 'get' || o.method === 'delete' || bodiless.has(`${o.method} ${o.path}`))) {
      expect({ op: `${method} ${path}`, body: op.requestBody }).toEqual({ op: `${method} ${path}`, body: undefined });
    }
    for (const { method, path, op } of operations.filter((o) => (o.method === 'post' || o.method === 'put') && !bodiless.has(`${o.method} ${o.path}`))) {
      const media = op.requestBody?.content?.['application/json'];
      expect({
        op: `${method} ${path}`,
        required: op.requestBody?.required,
        ref: typeof media?.schema?.$ref,
        examples: Object.keys(media?.examples ?? {}).length > 0,
      }).toEqual({
        op: `${method} ${path}`,
        required: true,
        ref: 'string',
        examples: true,
      });
    }
  });

  it('behavior: every 2xx body is a component (a 204 has none); every error answer is the error body narrowed to codes of its own status', () => {
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        const where = `${method.toUpperCase()} ${path} ${status}`;
        if (status === '204') {
          expect({ where, content: response.content }).toEqual({ where, content: undefined });
          continue;
        }
        const schema = response.content['application/json'].schema;
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

  it('behavior: what every operation can answer: 401, 403, 429, 500, 503; bodies (POST, PUT) add 400, 413, 415; payable reads add 402', () => {
    for (const { method, path, op } of operations) {
      const statuses = Object.keys(op.responses).map(Number);
      const expected = [
        401,
        403,
        429,
        500,
        503,
        ...(method === 'post' || method === 'put' ? [400, 413, 415] : []),
        ...(PAYABLE_OPERATIONS.has(op.operationId as Operation) ? [402] : []),
      ];
      expect({ op: `${method} ${path}`, missing: expected.filter((s) => !statuses.includes(s)) }).toEqual({ op: `${method} ${path}`, missing: [] });
    }
  });

  it('behavior: the headers: X-Request-Id on every answer, WWW-Authenticate on 401/402, Retry-After on 429, PAYMENT-REQUIRED on 402, rate and credit headers on key-only successes', () => {
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
          ...(Number(status) < 300 && !PAYABLE_OPERATIONS.has(op.operationId as Operation)
            ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Credits-Remaining']
            : []),
        ];
        expect({ where, missing: must.filter((h) => !required.includes(h)) }).toEqual({ where, missing: [] });
      }
    }
    expect(Object.keys(doc.paths['/intents'].post.responses['201'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'Idempotent-Replayed']));
    // X-Credits-Remaining on every operation, never on a 401 (a revoked key learns nothing of its account's spending)
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.entries(op.responses)
        .filter(([, r]: [string, any]) => 'X-Credits-Remaining' in (r.headers ?? {}))
        .map(([s]) => s);
      expect({ where, statuses }).toEqual({ where, statuses: Object.keys(op.responses).filter((s) => s !== '401' && s !== '402') });
    }
    expect(doc.paths['/wallets'].post.parameters.map((p: any) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
  });

  it('behavior: the policy routes answer what the service answers: statuses and codes per operation', () => {
    const codes = (path: string, method: string) =>
      Object.fromEntries(
        Object.entries(doc.paths[path][method].responses as Record<string, any>)
          .filter(([status]) => Number(status) < 500 && !['401', '413', '415', '429'].includes(status))
          .map(([status, r]) => [status, r.content ? (r.content['application/json'].schema.allOf?.[1].properties.error.enum ?? 'body') : 'none']),
      );
    const common = { 403: ['FORBIDDEN', 'CREDITS_EXHAUSTED'] };
    expect(codes('/policies', 'post')).toEqual({ 201: 'body', 400: ['INVALID_REQUEST'], ...common, 409: ['POLICY_CONFLICT'] });
    expect(codes('/policies', 'get')).toEqual({ 200: 'body', 400: ['INVALID_REQUEST'], ...common });
    expect(codes('/policies/{policyId}', 'get')).toEqual({ 200: 'body', ...common, 404: ['POLICY_NOT_FOUND'] });
    expect(codes('/policies/{policyId}', 'put')).toEqual({
      200: 'body',
      400: ['INVALID_REQUEST'],
      ...common,
      404: ['POLICY_NOT_FOUND'],
      409: ['VERSION_CONFLICT'],
    });
    expect(codes('/policies/{policyId}', 'delete')).toEqual({ 204: 'none', ...common, 404: ['POLICY_NOT_FOUND'], 409: ['POLICY_IN_USE'] });
    expect(codes('/wallets/{walletId}/policy', 'put')).toEqual({
      200: 'body',
      400: ['INVALID_REQUEST'],
      ...common,
      404: ['WALLET_NOT_FOUND', 'POLICY_NOT_FOUND'],
    });
    expect(codes('/wallets/{walletId}/policy', 'delete')).toEqual({ 204: 'none', ...common, 404: ['WALLET_NOT_FOUND'] });
    expect(codes('/wallets', 'post')[404]).toEqual(['POLICY_NOT_FOUND']);
    const intent = codes('/intents', 'post');
    expect({ 403: intent[403], 404: intent[404] }).toEqual({
      403: [...common[403], 'PLAN_RESTRICTED', 'POLICY_VIOLATION'],
      404: ['WALLET_NOT_FOUND', 'POLICY_NOT_FOUND'],
    });
    const scope = (path: string, method: string) => /`(\w+)` scope/.exec(doc.paths[path][method].description)?.[1];
    expect(
      [
        'post /policies',
        'get /policies',
        'get /policies/{policyId}',
        'put /policies/{policyId}',
        'delete /policies/{policyId}',
        'put /wallets/{walletId}/policy',
        'delete /wallets/{walletId}/policy',
      ].map((o) => {
        const [method, path] = o.split(' ') as [string, string];
        return `${o} ${scope(path, method)}`;
      }),
    ).toEqual([
      'post /policies write',
      'get /policies read',
      'get /policies/{policyId} read',
      'put /policies/{policyId} write',
      'delete /policies/{policyId} write',
      'put /wallets/{walletId}/policy write',
      'delete /wallets/{walletId}/policy write',
    ]);
    expect(doc.components.examples.POLICY_VIOLATION.value.details).toEqual(
      expect.objectContaining({
        policyId: expect.any(String),
        version: expect.any(Number),
        rule: expect.any(String),
        limit: expect.anything(),
        requested: expect.anything(),
      }),
    );
  });

  it('behavior: the policy bodies: the document and the zod schemas accept the same ones (but the decimals of a JSON-number amount, said in words)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const docCreate = ajv.compile({ $ref: 'doc#/components/schemas/CreatePolicyRequest' });
    const docUpdate = ajv.compile({ $ref: 'doc#/components/schemas/UpdatePolicyRequest' });
    const absent = fc.constant(undefined);
    const ws = fc.stringMatching(/^[ \t\n\u00a0\u2028\ufeff]{0,3}$/);
    const name = fc.oneof(
      fc.tuple(ws, fc.stringMatching(/^[a-zé ]{0,70}$/), ws).map(([a, b, c]) => a + b + c),
      fc.string({ maxLength: 70 }),
      fc.constantFrom('', ' ', 'x'.repeat(64), 'x'.repeat(65), ` ${'x'.repeat(64)}\n`, `a${' '.repeat(62)}b`, `a${' '.repeat(63)}b`, 5, null),
      absent,
    );
    const list = <T extends string>(values: readonly T[]) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.shuffledSubarray([...values], { minLength: 1 }) },
        { weight: 1, arbitrary: fc.shuffledSubarray([...values]).map((l) => [...l, ...l.slice(0, 1)]) },
        { weight: 1, arbitrary: fc.constantFrom([], ['polygon'], 'lend', null, [1]) },
      );
    const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{0,${n}}$`));
    const usd = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(digits(14), fc.option(digits(3), { nil: undefined })).map(([w, f]) => (f === undefined ? w : `${w}.${f}`)) },
      { weight: 2, arbitrary: fc.integer({ min: -5, max: 100_000 }).map((n) => n / 100) },
      { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(0, 0.01, 0.001, 1e12, 999999999999.99, 1e21, '0', '0.00', '00.01', '0.01', '1e3', ' 1', '-1', '1.', '.5', true, null),
      },
    );
    const rules = fc
      .oneof(
        {
          weight: 6,
          arbitrary: fc.record(
            {
              actions: list(INTENT_ACTIONS),
              chains: list(CHAIN_NAMES),
              protocols: list(LENDING_PROTOCOLS),
              maxUsdPerIntent: usd,
              maxUsdPerDay: usd,
              limit: fc.constant(1),
            },
            { requiredKeys: [] },
          ),
        },
        { weight: 1, arbitrary: fc.constantFrom({}, null, [], 'all') },
      )
      .map((r) =>
        r && typeof r === 'object' && 'limit' in r && Object.keys(r).length > 1
          ? (({ limit, ...rest }) => (void limit, rest))(r as Record<string, unknown>)
          : r,
      );
    const random = fc.record(
      { name, scope: fc.constantFrom('wallet', 'account', 'global', null, undefined), rules, extra: fc.constant(1) },
      { requiredKeys: [] },
    );
    /** Bodies shaped like real requests (most valid), so both sides of every rule are reached. */
    const cleanUsd = fc.oneof(
      fc.tuple(digits(13), fc.option(digits(3), { nil: undefined })).map(([w, f]) => (f === undefined ? w : `${w}.${f}`)),
      fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 100),
      fc.constantFrom(0, 0.001, 1e12, '0.00', 12.345),
    );
    const validList = <T extends string>(values: readonly T[]) => fc.shuffledSubarray([...values], { minLength: 1 });
    const shaped = fc.record(
      {
        name: fc.tuple(ws, fc.stringMatching(/^[a-z][a-z ]{0,64}$/), ws).map(([a, b, c]) => a + b + c),
        scope: fc.constantFrom('wallet', 'account'),
        rules: fc.record(
          {
            actions: validList(INTENT_ACTIONS),
            chains: validList(CHAIN_NAMES),
            protocols: validList(LENDING_PROTOCOLS),
            maxUsdPerIntent: cleanUsd,
            maxUsdPerDay: cleanUsd,
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['name', 'rules'] },
    );
    const body = fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 2, arbitrary: random });
    /** The one allowed difference: zod refuses only a JSON-number amount for its decimals, which the document says in words. */
    const decimalsOnly = (b: any, issues: { path: PropertyKey[] }[]) =>
      issues.every(
        (i) =>
          i.path[0] === 'rules' && typeof b.rules?.[i.path[1] as string] === 'number' && !/^\d{1,12}(\.\d{1,2})?$/.test(String(b.rules[i.path[1] as string])),
      );
    const disagreements: string[] = [];
    let accepted = 0;
    fc.assert(
      fc.property(body, (raw) => {
        const b = JSON.parse(JSON.stringify(raw));
        for (const [label, schema, validate, input] of [
          ['create', createPolicySchema, docCreate, b],
          ['update', updatePolicySchema, docUpdate, (({ scope, ...rest }) => (void scope, rest))(b)],
        ] as const) {
          const z = schema.safeParse(input);
          const d = validate(input);
          if (z.success) accepted++;
          if (z.success !== d && !(d && !z.success && decimalsOnly(input, z.error.issues))) {
            disagreements.push(
              `${label} ${JSON.stringify(input)}: zod ${z.success ? 'accepts' : `refuses (${z.error?.issues.map((i) => i.message).join('; ')})`}, document ${d ? 'accepts' : `refuses (${ajv.errorsText(validate.errors)})`}`,
            );
          }
        }
      }),
      { numRuns: 3000 },
    );
    expect(disagreements.slice(0, 10)).toEqual([]);
    expect(accepted).toBeGreaterThan(1000);
  });

  it('behavior: the intent body is a variant per action, chosen by action', () => {
    const body = doc.components.schemas.CreateIntentRequest;
    expect(body.discriminator.propertyName).toBe('action');
    const variants = body.oneOf.map((v: any) => doc.components.schemas[v.$ref.split('/').pop()]);
    expect(variants.map((v: any) => [v.properties.action.enum[0], [...v.required].sort()])).toEqual([
      ['lend', ['action', 'amount', 'walletId']],
      ['withdraw', ['action', 'amount', 'chain', 'walletId']],
      ['bridge', ['action', 'amount', 'fromChain', 'toChain', 'walletId']],
      ['rebalance', ['action', 'amount', 'sources', 'toChain', 'toProtocol', 'walletId']],
    ]);
  });
});
