import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from './zod';
import { createWalletSchema } from '../../domain/schemas/wallet';
import { fundDemoSchema } from '../../domain/schemas/funding';
import { yieldsQuerySchema } from '../../domain/schemas/yields';
import { listIntentsSchema, MAX_PAGE, DEFAULT_PAGE } from '../../app/intents/listIntents';
import type { ErrorCode } from '../../domain/errors/base';
import { ERROR_STATUS } from '../../http/errorStatus';
import { CREDIT_COST, PAYABLE_OPERATIONS, PLANS, WRITE_OPERATIONS, type Operation } from '../../domain/plans';
import { FUNDING_LIMIT } from '../../app/funding/fundDemoWallet';
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH } from '../../domain/schemas/metadata';
import {
  auditPageSchema,
  balanceReportSchema,
  fundingReceiptSchema,
  intentPageSchema,
  intentPreviewSchema,
  intentSchema,
  policyPageSchema,
  policySchema,
  usageSchema,
  walletReadSchema,
  walletSchema,
  yieldReportSchema,
} from './schemas';
import { createPolicyBodySchema, setWalletPolicyBodySchema, updatePolicyBodySchema } from './policyBody';
import { listAuditEventsSchema } from '../../domain/schemas/audit';
import { listPoliciesSchema } from '../../app/policies/managePolicies';
import { createIntentBodySchema } from './intentBody';
import { YIELD_HISTORY_EXAMPLE, yieldHistorySchema } from './yieldHistory';
import { CANCEL_EXAMPLES, CANCELLED_MIDWAY_EXAMPLE } from './intentCancel';
import { yieldHistoryQuerySchema } from '../../domain/schemas/yieldHistory';
import { MAX_HISTORY_BUCKETS } from '../../app/yields/getYieldHistory';
import { CODE_DOCS, RESPONSE_HEADERS, errorSchema, fieldIssueSchema, paymentErrorSchema, type ResponseHeaderName } from './errors';
import { EXAMPLES, PAGE_EXAMPLE, POLICY_PAGE_EXAMPLE, X402_V1_ACCEPTS, errorExample } from './examples';
import {
  WEBHOOK_EXAMPLES,
  createWebhookBodySchema,
  createdWebhookSchema,
  deliveryPageSchema,
  deliverySchema,
  webhookIdParam,
  webhookListSchema,
  webhookSchema,
} from './webhooks';
import { listDeliveriesSchema } from '../../domain/schemas/webhooks';
import {
  STANDING_EXAMPLES,
  createStandingBodySchema,
  decisionPageSchema,
  simulateBodySchema,
  simulateResultSchema,
  standingIdParam,
  standingEarningsSchema,
  standingIntentSchema,
  standingPageSchema,
} from './standing';
import { standingPageSchema as standingPageQuery } from '../../domain/schemas/standing';

/**
 * The OpenAPI 3.1 document of `/v1` (served at /v1/openapi.json), generated
 * from the zod schemas that validate the requests (src/domain/schemas), the
 * response schemas in ./openapi/schemas.ts (checked against the use-cases'
 * view types at compile time), and the table of operations below: every
 * status each route can answer with its error codes, and every header.
 *
 * Documented: every `/v1` operation (the document itself aside). Not
 * documented here: the operator's admin API (`/admin/*`, mounted only with
 * ADMIN_TOKEN) and the health, metrics and docs routes; docs/operations.md describes
 * them. test/e2e/openapiConformance.test.ts fails when a `/v1` route has no
 * entry in OPERATIONS.
 */

type Status = 200 | 201 | 202 | 204 | 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

interface OperationSpec {
  operationId: Operation;
  method: 'get' | 'post' | 'put' | 'delete';
  /** Relative to the server URL `/v1`. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  request?: RouteConfig['request'];
  /** components.parameters by name. */
  parameters?: string[];
  body?: { schema: z.ZodType; examples: Record<string, { summary: string; value: unknown }> };
  /** What happens to query parameters the operation does not name. */
  unknownQuery: 'refused' | 'ignored';
  /** A 204 has no body: no schema, no examples. */
  success: {
    status: 200 | 201 | 202 | 204;
    description: string;
    schema?: z.ZodType;
    examples?: Record<string, { summary: string; value: unknown }>;
    /** Extra headers: true when always present. */
    headers?: Partial<Record<ResponseHeaderName, boolean>>;
  };
  /** Codes by status, beyond those every operation answers (commonErrors). */
  errors: Partial<Record<Status, ErrorCode[]>>;
}

const payable = (op: Operation) => PAYABLE_OPERATIONS.has(op);
const credits = (op: Operation) => `${CREDIT_COST[op]} credit${CREDIT_COST[op] === 1 ? '' : 's'}`;
const cost = (op: Operation) => (payable(op) ? `${credits(op)}, or 0.001 USDC over x402 without a key` : credits(op));

const walletIdParam = z.object({
  walletId: z.string().meta({
    description: "A wallet id (any other value, or another account's wallet, is 404 WALLET_NOT_FOUND)",
    examples: ['svc_wallet_0123456789abcdef0123456789abcdef'],
  }),
});
const intentIdParam = z.object({
  intentId: z.string().meta({
    description: "An intent id (any other value, or another account's intent, is 404 INTENT_NOT_FOUND)",
    examples: ['intent_0123456789abcdef0123456789abcdef'],
  }),
});
const policyIdParam = z.object({
  policyId: z.string().meta({
    description: "A policy id (any other value, or another account's policy, is 404 POLICY_NOT_FOUND)",
    examples: ['svc_policy_0123456789abcdef0123456789abcdef'],
  }),
});
/** The same field the route validates the path parameter with (createWalletSchema.userId). */
const userIdParam = createWalletSchema.pick({ userId: true });

/** The list's query, field by field from the schema that validates it. */
const q = listIntentsSchema.shape;
const listIntentsQuery = z.object({
  walletId: q.walletId.meta({ description: 'The wallet whose intents to list (one of yours)', examples: ['svc_wallet_0123456789abcdef0123456789abcdef'] }),
  status: q.status.meta({ description: 'Only intents in this status' }),
  first: q.first.meta({ description: `Page size, 1-${MAX_PAGE} (default ${DEFAULT_PAGE})` }),
  after: q.after.meta({ description: '`pageInfo.endCursor` of the previous page' }),
});

/** The wallet body: z.json() inside metadata is recursive, which the generator cannot walk; documented as a JSON object with the same limits. */
const { metadata: metadataField, ...walletFields } = createWalletSchema.shape;
const createWalletBody = z
  .strictObject({
    ...walletFields,
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ ...(metadataField.unwrap().meta() ?? {}), propertyNames: { pattern: '^[^$.][^.]*$|^$' } }),
  })
  .openapi('CreateWalletRequest', { description: `Unknown fields are refused (metadata at most ${METADATA_MAX_BYTES} bytes, ${METADATA_MAX_DEPTH} levels)` });

/** The query of GET /policies: the schema the use-case validates with. */
const listPoliciesQuery = listPoliciesSchema;

const fundDemoBody = fundDemoSchema.openapi('FundDemoRequest', { description: 'Only walletId counts' });

const OPERATIONS: OperationSpec[] = [
  {
    operationId: 'createWallet',
    method: 'post',
    path: '/wallets',
    tag: 'Wallets',
    summary: 'Create a wallet',
    description: `Creates the wallet of one of your users: a key generated and kept encrypted by the service, its address returned. ${cost('createWallet')}. One wallet per userId; the plan limits the count (free ${PLANS.free.wallets}, pro ${PLANS.pro.wallets}). Send an Idempotency-Key to retry safely. \`policyId\` names a wallet-scope policy of your account to govern it (an account-scope one is 400 INVALID_REQUEST, an unknown one 404 POLICY_NOT_FOUND); without it the account's account-scope policy, if any, governs it.`,
    parameters: ['IdempotencyKey'],
    body: {
      schema: createWalletBody,
      examples: {
        wallet: { summary: 'A wallet with e-mail and metadata', value: EXAMPLES.createWallet },
        governed: { summary: 'A wallet governed by its own spending policy', value: EXAMPLES.createGovernedWallet },
      },
    },
    unknownQuery: 'ignored',
    success: {
      status: 201,
      description: 'The wallet',
      schema: walletSchema,
      examples: { wallet: { summary: 'Created', value: EXAMPLES.wallet } },
      headers: { 'Idempotent-Replayed': false },
    },
    errors: { 403: ['WALLET_LIMIT_EXCEEDED'], 404: ['POLICY_NOT_FOUND'], 409: ['WALLET_ALREADY_EXISTS', 'IDEMPOTENCY_CONFLICT'] },
  },
  {
    operationId: 'getWallet',
    method: 'get',
    path: '/wallets/{userId}',
    tag: 'Wallets',
    summary: 'Get a wallet by userId',
    description: `Your wallet for this userId. ${cost('getWallet')}: a paid read must name the account in X-Account-Id (user ids are unique per account), is answered without email and metadata (PaidWallet) and policyId null, is refused (403 FORBIDDEN, reason email_user_id) for a user id that is an e-mail address unless the account allows it, and counts against the payer's lower limit of paid wallet lookups.`,
    request: { params: userIdParam },
    parameters: ['AccountId'],
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The wallet (Wallet to its account; PaidWallet to a paid read)',
      schema: walletReadSchema,
      examples: {
        wallet: { summary: 'As its owner sees it', value: EXAMPLES.wallet },
        paid: { summary: 'As a paid read sees it', value: EXAMPLES.paidWallet },
      },
    },
    errors: { 400: ['INVALID_REQUEST'], 403: ['FORBIDDEN'], 404: ['WALLET_NOT_FOUND'] },
  },
  {
    operationId: 'getBalances',
    method: 'get',
    path: '/balances/{walletId}',
    tag: 'Chain reads',
    summary: 'Balances and lending positions',
    description: `Tokens and lending positions of the wallet on each of its chains, with USD values (read through a short cache). ${cost('getBalances')}.`,
    request: { params: walletIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The balance report',
      schema: balanceReportSchema,
      examples: { report: { summary: 'USDC held and lent', value: EXAMPLES.balances } },
    },
    errors: { 404: ['WALLET_NOT_FOUND'], 503: ['NETWORK_ERROR', 'TIMEOUT'] },
  },
  {
    operationId: 'getYields',
    method: 'get',
    path: '/yields',
    tag: 'Chain reads',
    summary: 'Lending rates and the best market',
    description: `Supply APYs of every market, filtered by asset and chain, and the best market for the asset. ${cost('getYields')}.

By default \`best\` is the highest APY. Opt-in, \`optimize=netReturn&walletId=…&amount=…\` (and \`horizonDays\`, default 30) ranks the markets the wallet's funds reach by what lending \`amount\` there nets over the horizon: earnings at the APY on what arrives, less route fees and the typical gas of every step at each chain's gas price now; \`best\` is the first and its reasoning names the runner-up and the numbers, \`netReturn.ranking\` lists them all. It is the ranking a lend intent with \`optimize: netReturn\` plans with. walletId, amount and horizonDays without optimize are 400 INVALID_REQUEST.`,
    request: { query: yieldsQuerySchema },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'The yield report',
      schema: yieldReportSchema,
      examples: { report: { summary: 'USDC markets', value: EXAMPLES.yields } },
    },
    errors: { 400: ['INVALID_REQUEST', 'INVALID_CHAIN'], 403: ['PLAN_RESTRICTED'], 404: ['WALLET_NOT_FOUND'], 503: ['NETWORK_ERROR', 'TIMEOUT'] },
  },
  {
    operationId: 'getYieldHistory',
    method: 'get',
    path: '/yields/history',
    tag: 'Chain reads',
    summary: 'APY history of the lending markets',
    description: `Each market's supply APY as the service sampled it (every minute by default; kept 90 days), in buckets with min, max, mean and the sample count, oldest first. Filters are optional; the window \`from\` → \`to\` defaults to the last 24 h and spans 30 days at most; \`bucket\` defaults to the smallest width making at most 500 buckets, and one asked for may make at most ${MAX_HISTORY_BUCKETS}. ${cost('getYieldHistory')}. Every bad parameter is named in \`details.issues\`.`,
    request: { query: yieldHistoryQuerySchema },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'The APY history',
      schema: yieldHistorySchema,
      examples: { history: { summary: 'One market over the last hour, 5-minute buckets', value: YIELD_HISTORY_EXAMPLE } },
    },
    errors: { 400: ['INVALID_REQUEST', 'INVALID_CHAIN'], 403: ['PLAN_RESTRICTED'] },
  },
  {
    operationId: 'createIntent',
    method: 'post',
    path: '/intents',
    tag: 'Intents',
    summary: 'Create a lend, withdraw or bridge intent',
    description: `Validates and stores the intent as \`pending\`, then plans and executes it in the background: poll GET /intents/{intentId} (Retry-After tells when) or subscribe over GraphQL. ${cost('createIntent')}. Send an Idempotency-Key to retry safely.

The spending policy governing the wallet (its own, else the account's account-scope policy, else none) decides before anything is stored or charged: the action, the chains the request names, \`maxUsdPerIntent\` and \`maxUsdPerDay\` (the amount at the asset's price now; exactly the limit is allowed; the daily window reserves it). A refusal is 403 POLICY_VIOLATION and no intent. A wallet whose own policy is gone fails closed: 404 POLICY_NOT_FOUND. The intent records \`policy\` (id and version); planning uses only the chains and protocols the policy allows, and when no plan fits the intent fails with POLICY_VIOLATION.`,
    parameters: ['IdempotencyKey'],
    body: {
      schema: createIntentBodySchema,
      examples: {
        lend: { summary: 'Lend USDC where the APY is best', value: EXAMPLES.lend },
        withdraw: { summary: 'Withdraw from the position on a chain', value: EXAMPLES.withdraw },
        bridge: { summary: 'Bridge USDC between chains', value: EXAMPLES.bridge },
      },
    },
    unknownQuery: 'ignored',
    success: {
      status: 201,
      description: 'The intent, pending',
      schema: intentSchema,
      examples: { intent: { summary: 'Accepted under a policy', value: EXAMPLES.intent } },
      headers: { 'Retry-After': true, 'Idempotent-Replayed': false },
    },
    errors: {
      400: ['INVALID_CHAIN'],
      403: ['PLAN_RESTRICTED', 'POLICY_VIOLATION'],
      404: ['WALLET_NOT_FOUND', 'POLICY_NOT_FOUND'],
      409: ['IDEMPOTENCY_CONFLICT'],
      429: ['GAS_BUDGET_EXCEEDED'],
    },
  },
  {
    operationId: 'previewIntent',
    method: 'post',
    path: '/intents/preview',
    tag: 'Intents',
    summary: 'Preview an intent: its plan, fees, gas and earnings',
    description: `Takes the body of POST /intents and answers the plan the engine would run now (the same reads, reservations of the wallet's executing intents, spending policy and planner), priced step by step: the route fee, the gas of each transaction in units and USD (at each chain's gas price and ETH/USD feed), what arrives, and for a deposit the yearly earnings at the market's APY; totals; the strategy. Nothing is stored, signed or sent. ${cost('previewIntent')}.

Gas: an approve (or a withdraw) is estimated with eth_estimateGas; a supply or burn, which needs the funds and allowance of the transactions before it, is simulated with eth_call under a state override granting them; a CCTP mint, which needs the attestation of its burn, gets the typical figure measured on the sandbox (\`estimate\` says which). The gas tank's native top-up of the wallet is counted neither here nor in results.totalGasUsed.

A lend without \`chain\` shows which rule chose the market (\`choice\`) and, when the highest APY and the best net return over \`horizonDays\` (default 30) differ, both (\`alternatives\`); \`optimize: netReturn\` in the body makes the net return the choice, as it would for the intent. A body the intent would fail planning with answers the error it would record: 422 INSUFFICIENT_FUNDS (details.required, available, perChain), or 403 POLICY_VIOLATION when only the policy stands in the way.`,
    body: {
      schema: createIntentBodySchema,
      examples: {
        lend: { summary: 'Lend USDC where the APY is best', value: EXAMPLES.lend },
        netReturn: { summary: 'Lend where it nets the most over 30 days', value: EXAMPLES.lendNetReturn },
      },
    },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The plan, priced',
      schema: intentPreviewSchema,
      examples: { preview: { summary: 'A single-bridge lend', value: EXAMPLES.preview } },
    },
    errors: {
      400: ['INVALID_CHAIN'],
      403: ['PLAN_RESTRICTED', 'POLICY_VIOLATION'],
      404: ['WALLET_NOT_FOUND', 'POLICY_NOT_FOUND'],
      422: ['INSUFFICIENT_FUNDS'],
      503: ['NETWORK_ERROR', 'TIMEOUT'],
    },
  },
  {
    operationId: 'getIntent',
    method: 'get',
    path: '/intents/{intentId}',
    tag: 'Intents',
    summary: 'Get an intent',
    description: `The intent with its plan, step progress and results. ${cost('getIntent')}. While it is not final the answer carries Retry-After: the seconds to wait before asking again.`,
    request: { params: intentIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The intent',
      schema: intentSchema,
      examples: { pending: { summary: 'Just created', value: EXAMPLES.intent }, completed: { summary: 'Completed', value: EXAMPLES.completedIntent } },
      headers: { 'Retry-After': false },
    },
    errors: { 404: ['INTENT_NOT_FOUND'] },
  },
  {
    operationId: 'cancelIntent',
    method: 'post',
    path: '/intents/{intentId}/cancel',
    tag: 'Intents',
    summary: 'Cancel an intent',
    description: `A \`pending\` intent is cancelled at once. A \`planning\` or \`executing\` one records the request (\`cancelRequestedAt\`) and stops before its next step that has nothing signed yet, ending \`cancelled\` with \`results\` saying what completed: funds stay where the last completed step left them (e.g. bridged to the destination, not deposited). A step with a signed transaction is never abandoned: it runs to its end first. Poll GET /intents/{intentId} (Retry-After while it is not final) or follow intentUpdated over GraphQL. A \`cancelled\` intent is answered as it is; a \`completed\` or \`failed\` one is 409 INTENT_NOT_CANCELLABLE. ${cost('cancelIntent')}. No body.`,
    request: { params: intentIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The intent after the request: cancelled, or still running with cancelRequestedAt',
      schema: intentSchema,
      examples: {
        pending: { summary: 'A pending intent, cancelled at once', value: CANCEL_EXAMPLES.pending },
        requested: { summary: 'A bridge in flight: the cancel is recorded, the bridge runs to its end', value: CANCEL_EXAMPLES.requested },
        cancelled: { summary: 'Asked again once it stopped: bridged, not deposited', value: CANCELLED_MIDWAY_EXAMPLE },
      },
      headers: { 'Retry-After': false },
    },
    errors: { 404: ['INTENT_NOT_FOUND'], 409: ['INTENT_NOT_CANCELLABLE', 'VERSION_CONFLICT'] },
  },
  {
    operationId: 'listIntents',
    method: 'get',
    path: '/intents',
    tag: 'Intents',
    summary: "List a wallet's intents",
    description: `A wallet's intents, newest first, by cursor: pass pageInfo.endCursor as \`after\` for the next page. ${cost('listIntents')}. A repeated parameter counts by its first value.`,
    request: { query: listIntentsQuery },
    unknownQuery: 'ignored',
    success: { status: 200, description: 'A page of intents', schema: intentPageSchema, examples: { page: { summary: 'One intent', value: PAGE_EXAMPLE } } },
    errors: { 400: ['INVALID_REQUEST'], 404: ['WALLET_NOT_FOUND'] },
  },
  {
    operationId: 'fundDemo',
    method: 'post',
    path: '/demo/fund',
    tag: 'Demo',
    summary: 'Fund a wallet with test USDC',
    description: `Sends 1 test USDC on arbitrum-sepolia from the faucet and answers once the transaction is broadcast. ${cost('fundDemo')}; at most ${FUNDING_LIMIT.perWallet} per wallet and ${FUNDING_LIMIT.perAccount} per account in any ${FUNDING_LIMIT.windowHours} h.`,
    body: { schema: fundDemoBody, examples: { fund: { summary: 'Fund a wallet', value: EXAMPLES.fundDemo } } },
    unknownQuery: 'ignored',
    success: {
      status: 202,
      description: 'The funding transaction, broadcast',
      schema: fundingReceiptSchema,
      examples: { funding: { summary: 'Submitted', value: EXAMPLES.funding } },
    },
    errors: { 400: ['INVALID_CHAIN'], 404: ['WALLET_NOT_FOUND'], 429: ['FUNDING_LIMIT_EXCEEDED'], 503: ['NETWORK_ERROR', 'TIMEOUT'] },
  },
  {
    operationId: 'listAuditEvents',
    method: 'get',
    path: '/audit-events',
    tag: 'Audit',
    summary: "List the account's audit log",
    description: `Who decided what in the account (policies, intents created, denied, completed or failed, keys created or revoked), newest first, by cursor: pass nextCursor as \`cursor\` for the next page. ${cost('listAuditEvents')}. A repeated parameter is 400.`,
    request: { query: listAuditEventsSchema },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'A page of audit events',
      schema: auditPageSchema,
      examples: { page: { summary: 'One event', value: EXAMPLES.auditPage } },
    },
    errors: { 400: ['INVALID_REQUEST'] },
  },
  {
    operationId: 'createPolicy',
    method: 'post',
    path: '/policies',
    tag: 'Policies',
    summary: 'Create a spending policy',
    description: `A policy at version 1: what the wallets it governs may do (actions, chains, protocols, USD per intent and per rolling day), decided by the service before anything is signed. ${cost('createPolicy')}. A \`wallet\` policy governs the wallets it is set on (PUT /wallets/{walletId}/policy); the one \`account\` policy governs every wallet without its own.`,
    body: {
      schema: createPolicyBodySchema,
      examples: {
        wallet: { summary: 'A wallet policy with every rule', value: EXAMPLES.createPolicy },
        account: { summary: "The account's policy", value: EXAMPLES.createAccountPolicy },
      },
    },
    unknownQuery: 'ignored',
    success: { status: 201, description: 'The policy', schema: policySchema, examples: { policy: { summary: 'Created', value: EXAMPLES.policy } } },
    errors: { 409: ['POLICY_CONFLICT'] },
  },
  {
    operationId: 'listPolicies',
    method: 'get',
    path: '/policies',
    tag: 'Policies',
    summary: "List the account's policies",
    description: `The account's policies, newest first, by cursor: pass pageInfo.endCursor as \`after\` for the next page. ${cost('listPolicies')}. A repeated parameter counts by its first value.`,
    request: { query: listPoliciesQuery },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'A page of policies',
      schema: policyPageSchema,
      examples: { page: { summary: 'One policy, more after it', value: POLICY_PAGE_EXAMPLE } },
    },
    errors: { 400: ['INVALID_REQUEST'] },
  },
  {
    operationId: 'getPolicy',
    method: 'get',
    path: '/policies/{policyId}',
    tag: 'Policies',
    summary: 'Get a policy',
    description: `The policy at its current version. ${cost('getPolicy')}.`,
    request: { params: policyIdParam },
    unknownQuery: 'ignored',
    success: { status: 200, description: 'The policy', schema: policySchema, examples: { policy: { summary: 'Version 1', value: EXAMPLES.policy } } },
    errors: { 404: ['POLICY_NOT_FOUND'] },
  },
  {
    operationId: 'updatePolicy',
    method: 'put',
    path: '/policies/{policyId}',
    tag: 'Policies',
    summary: 'Replace the name and rules of a policy',
    description: `Replaces the name and every rule, version + 1; the scope stays. Intents accepted afterwards are decided under the new version; those already accepted keep the version they recorded. ${cost('updatePolicy')}.`,
    request: { params: policyIdParam },
    body: {
      schema: updatePolicyBodySchema,
      examples: { update: { summary: 'Lends only, a higher cap per intent, no daily cap', value: EXAMPLES.updatePolicy } },
    },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The policy, one version up',
      schema: policySchema,
      examples: { policy: { summary: 'Version 2', value: EXAMPLES.updatedPolicy } },
    },
    errors: { 404: ['POLICY_NOT_FOUND'], 409: ['VERSION_CONFLICT'] },
  },
  {
    operationId: 'deletePolicy',
    method: 'delete',
    path: '/policies/{policyId}',
    tag: 'Policies',
    summary: 'Delete a policy',
    description: `Deletes a policy nothing uses. ${cost('deletePolicy')}. While a wallet has it as its own policy, or (the account policy) while any wallet of the account has no policy of its own, it answers 409 POLICY_IN_USE.`,
    request: { params: policyIdParam },
    unknownQuery: 'ignored',
    success: { status: 204, description: 'Deleted' },
    errors: { 404: ['POLICY_NOT_FOUND'], 409: ['POLICY_IN_USE'] },
  },
  {
    operationId: 'setWalletPolicy',
    method: 'put',
    path: '/wallets/{walletId}/policy',
    tag: 'Policies',
    summary: "Set a wallet's own policy",
    description: `The wallet-scope policy that governs this wallet from now on, instead of the account policy (the wallet shows it as \`policyId\`). ${cost('setWalletPolicy')}. An account-scope policy is 400 INVALID_REQUEST: it already governs every wallet without its own.`,
    request: { params: walletIdParam },
    body: { schema: setWalletPolicyBodySchema, examples: { set: { summary: 'A wallet-scope policy', value: EXAMPLES.setWalletPolicy } } },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The wallet',
      schema: walletSchema,
      examples: { wallet: { summary: 'Governed by its own policy', value: EXAMPLES.walletWithPolicy } },
    },
    errors: { 404: ['WALLET_NOT_FOUND', 'POLICY_NOT_FOUND'] },
  },
  {
    operationId: 'removeWalletPolicy',
    method: 'delete',
    path: '/wallets/{walletId}/policy',
    tag: 'Policies',
    summary: "Remove a wallet's own policy",
    description: `The wallet has no policy of its own any more (\`policyId\` null): the account policy governs it, if there is one, else none. ${cost('removeWalletPolicy')}. Answers 204 whether or not it had one.`,
    request: { params: walletIdParam },
    unknownQuery: 'ignored',
    success: { status: 204, description: 'Removed' },
    errors: { 404: ['WALLET_NOT_FOUND'] },
  },
  {
    operationId: 'getUsage',
    method: 'get',
    path: '/usage',
    tag: 'Account',
    summary: 'Your plan, credits and limits',
    description: `The account of the key: its plan, the credits used this month and their limit (null: unlimited) and when they reset, the current one-minute rate window (this request counted), and its wallets against the plan limit. ${cost('getUsage')}: it never spends the credits it reports (it still counts in the rate window). X-Credits-Remaining on every answer says \`credits.limit - credits.used\` (or \`unlimited\`) without this call.`,
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The usage of your account',
      schema: usageSchema,
      examples: { usage: { summary: 'A free account early in the month', value: EXAMPLES.usage } },
    },
    errors: {},
  },
  {
    operationId: 'createWebhook',
    method: 'post',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description: `An endpoint the service POSTs the events it names to: \`intent.updated\` (every status an intent enters), \`intent.completed\`, \`intent.failed\`, \`intent.cancelled\`, \`standing_intent.rebalanced\` (a standing intent moved its funds), \`standing_intent.skipped\` (it decided not to: up to one a minute per standing intent, so only to endpoints that ask for it). ${cost('createWebhook')}. The answer carries the signing secret (\`whsec_…\`) this once. Deliveries are signed as Standard Webhooks specifies (headers webhook-id, webhook-timestamp, webhook-signature: \`v1,\` and the base64 HMAC-SHA256 of \`id.timestamp.body\`), retried with back-off for 24 h until a 2xx, at least once (drop repeats by webhook-id). The URL must be http or https, without credentials, at most 2048 characters; its host must resolve to public addresses only (a sandbox outside production also allows loopback): otherwise 400 INVALID_REQUEST naming \`url\`. At most 20 endpoints per account.`,
    body: { schema: createWebhookBodySchema, examples: { create: { summary: 'Completed and failed intents', value: WEBHOOK_EXAMPLES.create } } },
    unknownQuery: 'ignored',
    success: {
      status: 201,
      description: 'The endpoint and its signing secret (shown once)',
      schema: createdWebhookSchema,
      examples: { created: { summary: 'Created', value: WEBHOOK_EXAMPLES.created } },
    },
    errors: {},
  },
  {
    operationId: 'listWebhooks',
    method: 'get',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: "List the account's webhook endpoints",
    description: `Every endpoint of the account, newest first (without their secrets). ${cost('listWebhooks')}.`,
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The endpoints',
      schema: webhookListSchema,
      examples: { list: { summary: 'One endpoint', value: WEBHOOK_EXAMPLES.list } },
    },
    errors: {},
  },
  {
    operationId: 'getWebhook',
    method: 'get',
    path: '/webhooks/{webhookId}',
    tag: 'Webhooks',
    summary: 'Get a webhook endpoint',
    description: `The endpoint (without its secret). ${cost('getWebhook')}.`,
    request: { params: webhookIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The endpoint',
      schema: webhookSchema,
      examples: { webhook: { summary: 'An endpoint', value: WEBHOOK_EXAMPLES.webhook } },
    },
    errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  },
  {
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/webhooks/{webhookId}',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: `Deletes the endpoint; deliveries still owed to it are dropped. ${cost('deleteWebhook')}.`,
    request: { params: webhookIdParam },
    unknownQuery: 'ignored',
    success: { status: 204, description: 'Deleted' },
    errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/webhooks/{webhookId}/deliveries',
    tag: 'Webhooks',
    summary: "An endpoint's delivery log",
    description: `The deliveries owed to the endpoint, newest first, by cursor (pass pageInfo.endCursor as \`after\`): each with its status (pending, delivered, failed), attempts, the endpoint's last status code or error, when the next attempt is due, and the payload sent. ${cost('listWebhookDeliveries')}. Kept 30 days on MongoDB.`,
    request: { params: webhookIdParam, query: listDeliveriesSchema },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'A page of deliveries',
      schema: deliveryPageSchema,
      examples: {
        page: {
          summary: 'One delivery',
          value: {
            deliveries: [WEBHOOK_EXAMPLES.delivery],
            pageInfo: { hasNextPage: false, endCursor: 'WyIyMDI2LTAxLTMxVDEyOjAwOjA1LjAwMFoiLCJtc2dfMDEyMyJd' },
          },
        },
      },
    },
    errors: { 400: ['INVALID_REQUEST'], 404: ['WEBHOOK_NOT_FOUND'] },
  },
  {
    operationId: 'sendTestWebhook',
    method: 'post',
    path: '/webhooks/{webhookId}/test',
    tag: 'Webhooks',
    summary: 'Send a test event',
    description: `Queues a \`webhook.test\` event to the endpoint, whatever it subscribes to, signed and retried like any delivery; follow it in the delivery log. ${cost('sendTestWebhook')}. No body.`,
    request: { params: webhookIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 202,
      description: 'The delivery, pending',
      schema: deliverySchema,
      examples: { delivery: { summary: 'Queued', value: WEBHOOK_EXAMPLES.testDelivery } },
    },
    errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  },
  {
    operationId: 'createStandingIntent',
    method: 'post',
    path: '/standing-intents',
    tag: 'Standing intents',
    summary: "Keep a wallet's asset lent where it earns most",
    description: `A standing intent, active: on every rate sample (and when funds arrive on the wallet) the service decides whether moving the wallet's \`asset\` (\`amount\` of it, or all) to another market gains more over \`horizonDays\` than every cost of the move (withdraw gas, CCTP fee, bridge gas, deposit gas) by more than the larger of \`minGainUsd\` and 10 % of the gain, at most \`maxMovesPerDay\` moves per rolling 24 h, never into a market the wallet's spending policy forbids; a move is a \`rebalance\` intent like any other. ${cost('createStandingIntent')}. One per wallet and asset (a second is 409 STANDING_INTENT_ALREADY_EXISTS with the existing one's id in \`details.standingIntentId\`), at most 100 per account; the wallet must have a chain where the asset exists. Send an Idempotency-Key to retry safely.`,
    parameters: ['IdempotencyKey'],
    body: {
      schema: createStandingBodySchema,
      examples: {
        amount: { summary: "Keep 250 USDC lent (the rule's defaults)", value: STANDING_EXAMPLES.create },
        rule: { summary: 'All of it, a shorter horizon, a larger minimum gain, one move a day', value: STANDING_EXAMPLES.createFull },
      },
    },
    unknownQuery: 'ignored',
    success: {
      status: 201,
      description: 'The standing intent',
      schema: standingIntentSchema,
      examples: { standing: { summary: 'Created', value: STANDING_EXAMPLES.standing } },
      headers: { 'Idempotent-Replayed': false },
    },
    errors: { 404: ['WALLET_NOT_FOUND'], 409: ['STANDING_INTENT_ALREADY_EXISTS', 'IDEMPOTENCY_CONFLICT'] },
  },
  {
    operationId: 'listStandingIntents',
    method: 'get',
    path: '/standing-intents',
    tag: 'Standing intents',
    summary: "List the account's standing intents",
    description: `The account's standing intents, newest first, by cursor: pass pageInfo.endCursor as \`after\` for the next page. ${cost('listStandingIntents')}. A repeated parameter counts by its first value.`,
    request: { query: standingPageQuery },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'A page of standing intents',
      schema: standingPageSchema,
      examples: { page: { summary: 'One standing intent', value: STANDING_EXAMPLES.page } },
    },
    errors: { 400: ['INVALID_REQUEST'] },
  },
  {
    operationId: 'simulateStandingIntent',
    method: 'post',
    path: '/standing-intents/simulate',
    tag: 'Standing intents',
    summary: "Backtest a standing intent's rule",
    description: `Replays the recorded APY history of the asset's markets (kept 90 days, with the cost inputs of each sample) through the same decision the live service takes, and compares the rule with staying in today's best market and in the first one. ${cost('simulateStandingIntent')} for a small window; in all, max(5, ceil(days × markets / 10)) credits, with days the window's length (a started day counting whole) and markets the asset's markets recorded in its first or last hour on the chains the plan may use (at least 1): 30 days of 4 markets cost 12, 90 days 36. The plan's chains apply: a start on a main network the plan cannot use is 403 PLAN_RESTRICTED, and such markets are not replayed. One backtest per account and three per instance run at once; another is 429 BACKTEST_LIMIT_EXCEEDED (details.scope account or instance) with Retry-After, before anything is charged. Nothing is created.`,
    body: { schema: simulateBodySchema, examples: { simulate: { summary: '10,000 USDC over January', value: STANDING_EXAMPLES.simulate } } },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The replay',
      schema: simulateResultSchema,
      examples: { result: { summary: 'One move', value: STANDING_EXAMPLES.simulated } },
    },
    errors: { 400: ['INVALID_REQUEST', 'INVALID_CHAIN'], 403: ['PLAN_RESTRICTED'], 429: ['BACKTEST_LIMIT_EXCEEDED'] },
  },
  {
    operationId: 'getStandingIntent',
    method: 'get',
    path: '/standing-intents/{standingIntentId}',
    tag: 'Standing intents',
    summary: 'Get a standing intent',
    description: `The standing intent, with its last decision's sample minute and its last move's intent. ${cost('getStandingIntent')}.`,
    request: { params: standingIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The standing intent',
      schema: standingIntentSchema,
      examples: { standing: { summary: 'Active', value: STANDING_EXAMPLES.standing } },
    },
    errors: { 404: ['STANDING_INTENT_NOT_FOUND'] },
  },
  {
    operationId: 'pauseStandingIntent',
    method: 'post',
    path: '/standing-intents/{standingIntentId}/pause',
    tag: 'Standing intents',
    summary: 'Pause a standing intent',
    description: `Nothing is decided until it is resumed (a rebalance already running runs to its end). ${cost('pauseStandingIntent')}. Pausing a paused one answers it as it is. No body.`,
    request: { params: standingIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The standing intent, paused',
      schema: standingIntentSchema,
      examples: { paused: { summary: 'Paused', value: STANDING_EXAMPLES.paused } },
    },
    errors: { 404: ['STANDING_INTENT_NOT_FOUND'], 409: ['VERSION_CONFLICT'] },
  },
  {
    operationId: 'resumeStandingIntent',
    method: 'post',
    path: '/standing-intents/{standingIntentId}/resume',
    tag: 'Standing intents',
    summary: 'Resume a standing intent',
    description: `Decided again from the next rate sample. ${cost('resumeStandingIntent')}. Resuming an active one answers it as it is. No body.`,
    request: { params: standingIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'The standing intent, active',
      schema: standingIntentSchema,
      examples: { standing: { summary: 'Active again', value: STANDING_EXAMPLES.standing } },
    },
    errors: { 404: ['STANDING_INTENT_NOT_FOUND'], 409: ['VERSION_CONFLICT'] },
  },
  {
    operationId: 'deleteStandingIntent',
    method: 'delete',
    path: '/standing-intents/{standingIntentId}',
    tag: 'Standing intents',
    summary: 'Delete a standing intent',
    description: `Deletes it and its decisions (a rebalance already running runs to its end; the funds stay where they are). ${cost('deleteStandingIntent')}.`,
    request: { params: standingIdParam },
    unknownQuery: 'ignored',
    success: { status: 204, description: 'Deleted' },
    errors: { 404: ['STANDING_INTENT_NOT_FOUND'] },
  },
  {
    operationId: 'getStandingEarnings',
    method: 'get',
    path: '/standing-intents/{standingIntentId}/earnings',
    tag: 'Standing intents',
    summary: "What a standing intent's strategy earned",
    description: `The interest the wallet's positions of the asset accrued since deposit (balance − principal, exact token units, from the position ledger and the positions read on chain), and what the wallet's rebalances of the asset since the standing intent was created cost (gas and CCTP fees, USD): the strategy's earnings net of its costs. ${cost('getStandingEarnings')}.`,
    request: { params: standingIdParam },
    unknownQuery: 'ignored',
    success: {
      status: 200,
      description: 'Its earnings',
      schema: standingEarningsSchema,
      examples: { earnings: { summary: 'After one move', value: STANDING_EXAMPLES.earnings } },
    },
    errors: { 404: ['STANDING_INTENT_NOT_FOUND'] },
  },
  {
    operationId: 'listStandingDecisions',
    method: 'get',
    path: '/standing-intents/{standingIntentId}/decisions',
    tag: 'Standing intents',
    summary: "A standing intent's decisions",
    description: `Its decisions, one per sample minute at most, newest first, by cursor (pass pageInfo.endCursor as \`after\`): moved (\`rebalanced\`, with the rebalance intent) or not (\`skipped\`, with the reason and, for \`policy\`, the spending policy's rule), each with its numbers (target, sources, costs, gain, threshold). ${cost('listStandingDecisions')}. Kept 90 days.`,
    request: { params: standingIdParam, query: standingPageQuery },
    unknownQuery: 'refused',
    success: {
      status: 200,
      description: 'A page of decisions',
      schema: decisionPageSchema,
      examples: { page: { summary: 'The newest decision, more after it', value: STANDING_EXAMPLES.decisionPage } },
    },
    errors: { 400: ['INVALID_REQUEST'], 404: ['STANDING_INTENT_NOT_FOUND'] },
  },
];

/** What every `/v1` operation can answer, whatever it does. */
function commonErrors(op: OperationSpec): Partial<Record<Status, ErrorCode[]>> {
  return {
    401: ['UNAUTHORIZED'],
    403: ['FORBIDDEN', 'CREDITS_EXHAUSTED'],
    429: ['RATE_LIMIT_EXCEEDED'],
    500: ['INTERNAL_ERROR'],
    503: ['SERVICE_UNAVAILABLE'],
    ...(op.method === 'post' || op.method === 'put' ? { 400: ['INVALID_REQUEST'], 413: ['PAYLOAD_TOO_LARGE'], 415: ['UNSUPPORTED_MEDIA_TYPE'] } : {}),
    ...(payable(op.operationId) ? { 402: ['PAYMENT_REQUIRED', 'PAYMENT_INVALID'] } : {}),
  } as Partial<Record<Status, ErrorCode[]>>;
}

const STATUS_TEXT: Record<Status, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** Statuses whose answers always carry the rate headers on a key-only operation (the key was admitted before they arise). */
const AFTER_ADMISSION = new Set<number>([200, 201, 202, 204, 400, 403, 404, 409, 413, 415, 422, 429]);

/** The response headers of one answer: name → always present? */
function headersOf(op: OperationSpec, status: number): Partial<Record<ResponseHeaderName, boolean>> {
  const h: Partial<Record<ResponseHeaderName, boolean>> = { 'X-Request-Id': true };
  if (status !== 402) {
    // a payable read may be a paid one, which has no account and so no rate window (except a 403, which only keys get)
    const always = AFTER_ADMISSION.has(status) && (!payable(op.operationId) || status === 403);
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const) h[name] = always;
    // where the rate headers are, but not on a 401: a revoked key is shown its account's window, not its spending
    if (status !== 401) h['X-Credits-Remaining'] = always;
  }
  if (status === 429) h['Retry-After'] = true;
  if (status === 503) h['Retry-After'] = false;
  if (status === 401 || status === 402) h['WWW-Authenticate'] = true;
  if (status === 402) h['PAYMENT-REQUIRED'] = true;
  if (status >= 200 && status < 300) {
    Object.assign(h, op.success.headers);
    if (payable(op.operationId)) Object.assign(h, { 'PAYMENT-RESPONSE': false, 'X-PAYMENT-RESPONSE': false });
  }
  return h;
}

/** Response headers as references to components.headers (required and optional variants are separate components); `used` collects the components referenced. */
function headerRefs(h: Partial<Record<ResponseHeaderName, boolean>>, used: Set<string>): Record<string, { $ref: string }> {
  return Object.fromEntries(
    Object.entries(h).map(([name, always]) => {
      const component = always ? name : `${name}.optional`;
      used.add(component);
      return [name, { $ref: `#/components/headers/${component}` }];
    }),
  );
}

function errorResponse(op: OperationSpec, status: Status, codes: ErrorCode[], used: Set<string>) {
  const list = codes.map((c) => `- \`${c}\`: ${CODE_DOCS[c]}`).join('\n');
  let description = `${STATUS_TEXT[status]}:\n${list}`;
  if (status === 400 && op.unknownQuery === 'refused') description += '\n\nUnknown query parameters are refused here (INVALID_REQUEST, `unrecognized_keys`).';
  if (status === 401) description += "\n\nWWW-Authenticate: Bearer. A revoked key still shows its account's rate headers; its request is not counted.";
  if (status === 503) description += '\n\nRetry-After when the cause is known to pass (database failover, shutdown).';
  const base = status === 402 ? 'PaymentError' : 'Error';
  const schema = { allOf: [{ $ref: `#/components/schemas/${base}` }, { properties: { error: { enum: codes } } }] };
  const examples = Object.fromEntries(
    codes.map((c) => {
      used.add(`example:${c}`);
      return [c, { $ref: `#/components/examples/${c}` }];
    }),
  );
  return { description, headers: headerRefs(headersOf(op, status), used), content: { 'application/json': { schema, examples } } };
}

function route(op: OperationSpec, used: Set<string>): RouteConfig {
  const errors = commonErrors(op);
  for (const [status, codes] of Object.entries(op.errors)) {
    const s = Number(status) as Status;
    errors[s] = [...new Set([...(errors[s] ?? []), ...(codes ?? [])])];
  }
  const { success } = op;
  if ((success.status === 204) !== (success.schema === undefined))
    throw new Error(`openapi: ${op.operationId}: a 204 has no body, every other success has one`);
  const responses: RouteConfig['responses'] = {
    [success.status]: {
      description: success.description,
      headers: headerRefs(headersOf(op, success.status), used),
      ...(success.schema ? { content: { 'application/json': { schema: success.schema, examples: success.examples } } } : {}),
    },
  };
  for (const status of (Object.keys(errors).map(Number) as Status[]).sort((a, b) => a - b)) {
    responses[status] = errorResponse(op, status, errors[status]!, used);
  }
  const query =
    op.unknownQuery === 'refused' ? 'Query parameters it does not name are refused: 400 INVALID_REQUEST.' : 'Query parameters it does not name are ignored.';
  const scope = WRITE_OPERATIONS.has(op.operationId) ? 'write' : 'read';
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\nNeeds a key with the \`${scope}\` scope. ${query}`,
    security: payable(op.operationId) ? [{ apiKey: [] }, { x402: [] }, { x402v1: [] }, { paymentProof: [] }] : [{ apiKey: [] }],
    parameters: [...(op.parameters ?? []), 'RequestId'].map((p) => ({ $ref: `#/components/parameters/${p}` })),
    ...(op.request || op.body
      ? {
          request: {
            ...op.request,
            ...(op.body ? { body: { required: true, content: { 'application/json': { schema: op.body.schema, examples: op.body.examples } } } } : {}),
          },
        }
      : {}),
    responses,
  };
}

const DESCRIPTION = `Wallets for your users, their balances across chains, lending yields, and intents (lend, withdraw, bridge) the service plans and executes, within the spending policies you set.

**Authentication.** \`Authorization: Bearer svc_sk_…\` (an API key). Four reads (getWallet, getBalances, getYields, getIntent) may instead be paid per request, 0.001 USDC over x402, with no account: without credentials they answer 402 with the offer.

**Errors.** Every failure answers \`{error, message, details}\` with a machine-readable \`error\` code; each response lists the codes it carries. A path that does not exist answers 404 NOT_FOUND, and a method a path does not take 405 METHOD_NOT_ALLOWED with an Allow header (under /v1 the key is checked first: 401 without one).

**Limits.** Each API key's account has a per-minute request window (X-RateLimit-Limit/Remaining/Reset on every answer once the key is admitted; 429 RATE_LIMIT_EXCEEDED with Retry-After past it) and monthly credits (403 CREDITS_EXHAUSTED); credits are charged on 2xx only, and X-Credits-Remaining on every answer once the key is admitted says how many are left (\`unlimited\` on a plan without a limit). GET /usage (free) has the plan, credits, rate window and wallets in one answer. Bodies are JSON (415 otherwise) of at most the configured size (413).

**Idempotency.** POST /wallets, POST /intents and POST /standing-intents honour Idempotency-Key for 24 h: the same key and body replay the first answer (Idempotent-Replayed: true); another body, or a first request still running, is 409 IDEMPOTENCY_CONFLICT.

**Every answer** carries X-Request-Id, and the security headers of the service (Content-Security-Policy, X-Content-Type-Options, Referrer-Policy, …).

Not in this document: the operator's admin API (/admin, mounted with ADMIN_TOKEN), /healthz, /readyz, /metrics and /docs (see docs/operations.md in the repository), and GraphQL at /graphql.`;

let document: object | undefined;

/**
 * The OpenAPI 3.1 document of `/v1`, generated from the same zod schemas that
 * validate the requests (built once, on first use).
 */
export function openApiDocument(): object {
  if (document) return document;
  const r = new OpenAPIRegistry();
  r.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer', description: 'An API key: svc_sk_ followed by 64 hex characters' });
  const proof = (name: string, what: string) => ({
    type: 'apiKey' as const,
    in: 'header' as const,
    name,
    description: `Pay per request, no account: 0.001 USDC over x402 (${what}). Without credentials the read answers 402 with the requirements in PAYMENT-REQUIRED (v2) and \`accepts\` in the body (v1); the paid answer carries PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1) naming the settlement.`,
  });
  r.registerComponent('securitySchemes', 'x402', proof('PAYMENT-SIGNATURE', 'x402 v2 payment payload, base64 JSON'));
  r.registerComponent('securitySchemes', 'x402v1', proof('X-PAYMENT', 'x402 v1 payment payload, base64 JSON'));
  r.registerComponent('securitySchemes', 'paymentProof', proof('X-Payment-Proof', 'the same payload as PAYMENT-SIGNATURE or X-PAYMENT'));
  r.registerComponent('parameters', 'RequestId', {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Your id for the request, echoed in X-Request-Id (and the logs) when it is 1-128 of A-Z a-z 0-9 . _ : -; otherwise the service makes one.',
    schema: { type: 'string' },
  });
  r.registerComponent('parameters', 'IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the request safe to retry for 24 h: the same key with the same body answers the first answer again (Idempotent-Replayed: true); with another body, or while the first is still running, 409 IDEMPOTENCY_CONFLICT. 1-255 printable ASCII characters (else 400).',
    schema: { type: 'string', pattern: '^[!-~]{1,255}$' },
    example: 'order-1234',
  });
  r.registerComponent('parameters', 'AccountId', {
    name: 'X-Account-Id',
    in: 'header',
    required: false,
    description: 'Paid reads only (no API key): the account whose user to read; required then (400 without it). Ignored with a key.',
    schema: { type: 'string' },
  });
  r.register('Error', errorSchema);
  r.register('FieldIssue', fieldIssueSchema);
  r.register('PaymentError', paymentErrorSchema);
  const used = new Set<string>();
  for (const op of OPERATIONS) r.registerPath(route(op, used));
  for (const name of [...used].sort()) {
    if (name.startsWith('example:')) {
      const code = name.slice('example:'.length) as ErrorCode;
      const value = ERROR_STATUS[code] === 402 ? { ...errorExample(code), x402Version: 1, accepts: X402_V1_ACCEPTS } : errorExample(code);
      r.registerComponent('examples', code, { summary: code, value });
      continue;
    }
    const header = name.replace(/\.optional$/, '') as ResponseHeaderName;
    r.registerComponent('headers', name, { ...RESPONSE_HEADERS[header], required: !name.endsWith('.optional') });
  }
  document = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Wallet, yield and lending-intent service',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/v1', description: 'This service' }],
    tags: [
      { name: 'Wallets', description: 'One wallet per user of your application; the service holds its key' },
      { name: 'Chain reads', description: 'Balances and lending rates read from the chains' },
      { name: 'Intents', description: 'Lend, withdraw and bridge, planned and executed by the service' },
      { name: 'Policies', description: 'Spending policies: what each wallet may do, enforced before anything is signed' },
      { name: 'Demo', description: 'Test funds for trying the API' },
      { name: 'Audit', description: "The account's audit log" },
      { name: 'Account', description: 'Your plan, credits and limits' },
      { name: 'Webhooks', description: 'Intent and standing intent events POSTed to your endpoints, signed (Standard Webhooks) and retried for 24 h' },
      {
        name: 'Standing intents',
        description: "A wallet's asset kept lent in the market with the best net yield, moved when it pays; decisions and backtests",
      },
    ],
  });
  return document;
}
