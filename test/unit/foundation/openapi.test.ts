import { openApiDocument } from '../../../src/rest/openapi';

describe('OpenAPI document', () => {
  const doc = openApiDocument() as any;

  it('behavior: lists every /v1 route of SPEC with its method', () => {
    const ops = Object.entries(doc.paths).flatMap(([p, o]: [string, any]) => Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops.sort()).toEqual(
      ['GET /balances/{walletId}', 'GET /intents', 'GET /intents/{intentId}', 'GET /wallets/{userId}', 'GET /yields', 'POST /demo/fund', 'POST /intents', 'POST /wallets'].sort(),
    );
  });

  it('behavior: request bodies come from the shared zod schemas (userId pattern, intent actions)', () => {
    const wallet = doc.paths['/wallets'].post.requestBody.content['application/json'].schema;
    expect(wallet.required).toContain('userId');
    expect(wallet.properties.userId.maxLength).toBe(128);
    const intent = doc.paths['/intents'].post.requestBody.content['application/json'].schema;
    expect(intent.properties.action.enum).toEqual(['lend', 'withdraw', 'bridge']);
  });
});
