import { openApiDocument } from '../../../src/rest/openapi/document';

describe('OpenAPI document', () => {
  const doc = openApiDocument() as any;

  it('behavior: lists every /v1 route with its method', () => {
    const ops = Object.entries(doc.paths).flatMap(([p, o]: [string, any]) => Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops.sort()).toEqual(
      [
        'GET /audit-events',
        'GET /balances/{walletId}',
        'GET /intents',
        'GET /intents/{intentId}',
        'GET /wallets/{userId}',
        'GET /yields',
        'POST /demo/fund',
        'POST /intents',
        'POST /intents/preview',
        'POST /wallets',
        'POST /policies',
        'GET /policies',
        'GET /policies/{policyId}',
        'PUT /policies/{policyId}',
        'DELETE /policies/{policyId}',
        'PUT /wallets/{walletId}/policy',
        'DELETE /wallets/{walletId}/policy',
        'GET /usage',
        'GET /yields/history',
        'POST /intents/{intentId}/cancel',
        'POST /webhooks',
        'GET /webhooks',
        'GET /webhooks/{webhookId}',
        'DELETE /webhooks/{webhookId}',
        'GET /webhooks/{webhookId}/deliveries',
        'POST /webhooks/{webhookId}/test',
        'POST /standing-intents',
        'GET /standing-intents',
        'POST /standing-intents/simulate',
        'GET /standing-intents/{standingIntentId}',
        'POST /standing-intents/{standingIntentId}/pause',
        'POST /standing-intents/{standingIntentId}/resume',
        'DELETE /standing-intents/{standingIntentId}',
        'GET /standing-intents/{standingIntentId}/decisions',
        'GET /standing-intents/{standingIntentId}/earnings',
      ].sort(),
    );
  });

  /** A schema, following a $ref into components. */
  const resolve = (s: any): any => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s);

  it('behavior: request bodies come from the shared zod schemas (userId pattern, intent actions)', () => {
    const wallet = resolve(doc.paths['/wallets'].post.requestBody.content['application/json'].schema);
    expect(wallet.required).toContain('userId');
    expect(wallet.properties.userId.maxLength).toBe(128);
    const intent = resolve(doc.paths['/intents'].post.requestBody.content['application/json'].schema);
    expect(intent.oneOf.flatMap((v: any) => resolve(v).properties.action.enum)).toEqual(['lend', 'withdraw', 'bridge', 'rebalance']);
    const policy = resolve(doc.paths['/policies'].post.requestBody.content['application/json'].schema);
    expect({ required: policy.required, scope: policy.properties.scope }).toMatchObject({
      required: ['name', 'rules'],
      scope: { enum: ['wallet', 'account'], default: 'wallet' },
    });
    expect(Object.keys(resolve(policy.properties.rules).properties)).toEqual(['actions', 'chains', 'protocols', 'maxUsdPerIntent', 'maxUsdPerDay']);
    expect(resolve(doc.paths['/wallets/{walletId}/policy'].put.requestBody.content['application/json'].schema).required).toEqual(['policyId']);
  });

  it('behavior: exactly the four payable reads offer the x402 alternative, with their 402 answer and payment headers; writes stay key-only', () => {
    expect(doc.components.securitySchemes.x402).toMatchObject({ type: 'apiKey', in: 'header', name: 'PAYMENT-SIGNATURE' });
    const payable = Object.entries(doc.paths).flatMap(([p, o]: [string, any]) =>
      Object.entries(o)
        .filter(([, op]: [string, any]) => op.security.some((s: any) => 'x402' in s))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(payable.sort()).toEqual(['GET /balances/{walletId}', 'GET /intents/{intentId}', 'GET /wallets/{userId}', 'GET /yields']);
    const yields = doc.paths['/yields'].get;
    expect(Object.keys(yields.responses['402'].headers)).toEqual(expect.arrayContaining(['PAYMENT-REQUIRED', 'WWW-Authenticate']));
    expect(yields.responses['200'].headers['PAYMENT-RESPONSE']).toBeDefined();
    expect(doc.paths['/wallets'].post.security).toEqual([{ apiKey: [] }]);
  });
});
