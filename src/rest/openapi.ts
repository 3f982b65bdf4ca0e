import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { createWalletSchema } from '../domain/schemas/wallet';
import { createIntentSchema } from '../domain/schemas/intent';
import { fundDemoSchema } from '../domain/schemas/funding';
import { yieldsQuerySchema } from '../domain/schemas/yields';
import { listIntentsSchema } from '../app/intents/listIntents';
import { ERROR_STATUS } from '../domain/errors/base';

/** The SPEC error body; `error` is one of the service's codes. */
const errorBody = z.object({
  error: z.enum(Object.keys(ERROR_STATUS) as [string, ...string[]]),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const ok = (description: string) => ({ description, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } });
const errors = (...codes: number[]) =>
  Object.fromEntries([401, 429, ...codes].map((c) => [c, { description: `error (${c})`, ...json(errorBody) }]));

let document: object | undefined;

/**
 * The OpenAPI 3.1 document of `/v1`, generated from the same zod schemas that
 * validate the requests (built once, on first use).
 */
export function openApiDocument(): object {
  if (document) return document;
  const r = new OpenAPIRegistry();
  r.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer', description: 'svc_sk_ followed by 64 hex characters' });
  r.registerComponent('securitySchemes', 'x402', {
    type: 'apiKey',
    in: 'header',
    name: 'PAYMENT-SIGNATURE',
    description:
      'Pay per request, no account (SPEC "Authentication" 2): 0.001 USDC over x402. Without credentials the read answers 402 with the requirements in PAYMENT-REQUIRED (v2) and `accepts` in the body (v1); send the signed proof in PAYMENT-SIGNATURE (v2), X-PAYMENT (v1) or X-Payment-Proof; the answer carries PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1) naming the settlement.',
  });
  const security = [{ apiKey: [] }];
  /** The four reads SPEC lets a client pay for: an API key, or an x402 payment. */
  const payable: Record<string, string[]>[] = [{ apiKey: [] }, { x402: [] }];
  const paymentHeaders = {
    'PAYMENT-REQUIRED': { description: 'Base64 JSON x402 v2 PaymentRequired: x402Version 2, resource, accepts (eip155:84532 first, eip155:11155111; 1000 atomic USDC)', schema: { type: 'string' as const } },
    'WWW-Authenticate': { description: 'Bearer: an API key is the other way in', schema: { type: 'string' as const } },
  };
  const paymentBody = errorBody.extend({ x402Version: z.literal(1).optional(), accepts: z.array(z.record(z.string(), z.unknown())).optional() });
  const paid = (description: string) => ({
    200: { ...ok(description), headers: { 'PAYMENT-RESPONSE': { description: 'Base64 JSON settlement {success, transaction, network, payer} (v2; X-PAYMENT-RESPONSE for v1)', schema: { type: 'string' as const } } } },
    402: { description: 'PAYMENT_REQUIRED (no credentials) or PAYMENT_INVALID (details.reason): the requirements again', headers: paymentHeaders, ...json(paymentBody) },
  });
  const path = (name: string) => z.object({ [name]: z.string() });
  // z.json() is recursive, which the generator cannot walk: metadata is documented as a free-form object (≤ 8 KiB, depth ≤ 5).
  const walletBody = createWalletSchema.extend({ metadata: z.record(z.string(), z.unknown()).optional() });
  r.registerPath({ method: 'post', path: '/wallets', summary: 'Create a wallet (1 credit; Idempotency-Key honoured)', security, request: { body: json(walletBody) }, responses: { 201: ok('The wallet'), ...errors(400, 403, 409, 413, 415) } });
  r.registerPath({ method: 'get', path: '/wallets/{userId}', summary: 'A wallet by userId (1 credit, or 0.001 USDC with X-Account-Id: no email or metadata then)', security: payable, request: { params: path('userId'), headers: z.object({ 'X-Account-Id': z.string().optional() }) }, responses: { ...errors(404), ...paid('The wallet') } });
  r.registerPath({ method: 'get', path: '/balances/{walletId}', summary: 'Balances and lending positions on every chain (1 credit, or 0.001 USDC)', security: payable, request: { params: path('walletId') }, responses: { ...errors(404, 503), ...paid('The balance report') } });
  r.registerPath({ method: 'get', path: '/yields', summary: 'Lending APYs and the best market (1 credit, or 0.001 USDC)', security: payable, request: { query: yieldsQuerySchema }, responses: { ...errors(400, 503), ...paid('The yield report') } });
  r.registerPath({ method: 'post', path: '/intents', summary: 'Create a lend, withdraw or bridge intent (5 credits; Idempotency-Key honoured)', security, request: { body: json(createIntentSchema) }, responses: { 201: ok('The intent'), ...errors(400, 403, 404) } });
  r.registerPath({ method: 'get', path: '/intents/{intentId}', summary: 'An intent (1 credit, or 0.001 USDC; Retry-After: 5 while not final)', security: payable, request: { params: path('intentId') }, responses: { ...errors(404), ...paid('The intent') } });
  r.registerPath({ method: 'get', path: '/intents', summary: "A wallet's intents, newest first, cursor-paginated (1 credit)", security, request: { query: listIntentsSchema }, responses: { 200: ok('A page of intents'), ...errors(400, 404) } });
  r.registerPath({ method: 'post', path: '/demo/fund', summary: 'Send 1 test USDC on arbitrum-sepolia (1 credit; 10 per wallet per 24 h)', security, request: { body: json(fundDemoSchema) }, responses: { 202: ok('The funding transaction'), ...errors(400, 404) } });
  document = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Wallet, yield and lending-intent service', version: '1.0.0', description: 'See SPEC.md; errors are {error, message, details}.' },
    servers: [{ url: '/v1' }],
  });
  return document;
}
