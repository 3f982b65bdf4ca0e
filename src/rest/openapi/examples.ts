import type { ErrorCode } from '../../domain/errors/base';
import { CODE_DOCS } from './errors';
import { LENDING_PROTOCOLS } from '../../domain/protocols';

/** The protocols the examples name, from the domain's list of names (never spelled out here). */
export const [PROTOCOL_A, PROTOCOL_B = PROTOCOL_A] = LENDING_PROTOCOLS;

/**
 * Example values of the document. They are data, not shapes: `npx
 * @redocly/cli lint` (test/unit/rest/openapiLint.test.ts) checks each
 * against its schema.
 */

const WALLET_ID = 'svc_wallet_0123456789abcdef0123456789abcdef';
const INTENT_ID = 'intent_0123456789abcdef0123456789abcdef';
const POLICY_ID = 'svc_policy_0123456789abcdef0123456789abcdef';
const AT = '2026-01-31T12:00:00.000Z';

/** A wallet as its owner sees it, with no policy of its own. */
const WALLET = {
  id: WALLET_ID,
  userId: 'user_42',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  chainType: 'ethereum',
  chains: ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'],
  email: 'ada@example.com',
  metadata: { plan: 'gold' },
  policyId: null,
  createdAt: AT,
} as const;

export const EXAMPLES = {
  paidWallet: {
    id: WALLET.id,
    userId: WALLET.userId,
    address: WALLET.address,
    chainType: WALLET.chainType,
    chains: WALLET.chains,
    policyId: null,
    createdAt: WALLET.createdAt,
  },
  createWallet: { userId: 'user_42', email: 'ada@example.com', metadata: { plan: 'gold' } },
  createGovernedWallet: { userId: 'user_43', policyId: POLICY_ID },
  wallet: WALLET,
  balances: {
    walletId: WALLET_ID,
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    chains: [
      {
        chain: 'arbitrum-sepolia',
        tokens: [{ asset: 'USDC', token: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', balance: '1000000', balanceFormatted: '1', decimals: 6, valueUsd: 1 }],
        positions: [
          {
            protocol: PROTOCOL_A,
            asset: 'USDC',
            token: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d',
            balance: '2500000',
            balanceFormatted: '2.5',
            decimals: 6,
            valueUsd: 2.5,
            principal: '2.491302',
            earned: '0.008698',
          },
        ],
      },
      { chain: 'base-sepolia', tokens: [], positions: [] },
    ],
    totalValueUsd: 3.5,
  },
  yields: {
    rates: [
      { chain: 'arbitrum-sepolia', protocol: PROTOCOL_A, asset: 'USDC', token: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', apy: 4.2, sandboxOnly: false },
      { chain: 'ethereum-sepolia', protocol: PROTOCOL_B, asset: 'USDC', token: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', apy: 3.1, sandboxOnly: false },
    ],
    best: {
      chain: 'arbitrum-sepolia',
      protocol: PROTOCOL_A,
      asset: 'USDC',
      token: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d',
      apy: 4.2,
      sandboxOnly: false,
      reasoning:
        'arbitrum-sepolia/aave-v3 pays the highest USDC supply APY at 4.20%, 1.10 points above the next best; compared with ethereum-sepolia/compound-v3 3.10%.',
    },
  },
  createPolicy: {
    name: 'Small lends on L2s',
    rules: {
      actions: ['lend', 'withdraw'],
      chains: ['arbitrum-sepolia', 'base-sepolia'],
      protocols: [PROTOCOL_A],
      maxUsdPerIntent: '100',
      maxUsdPerDay: 500.5,
    },
  },
  createAccountPolicy: { name: 'Account default', scope: 'account', rules: { maxUsdPerIntent: 1000 } },
  policy: {
    id: POLICY_ID,
    name: 'Small lends on L2s',
    scope: 'wallet',
    rules: {
      actions: ['lend', 'withdraw'],
      chains: ['arbitrum-sepolia', 'base-sepolia'],
      protocols: [PROTOCOL_A],
      maxUsdPerIntent: '100',
      maxUsdPerDay: '500.5',
    },
    version: 1,
    createdAt: AT,
    updatedAt: AT,
  },
  updatePolicy: { name: 'Lends on L2s', rules: { actions: ['lend'], chains: ['arbitrum-sepolia', 'base-sepolia'], maxUsdPerIntent: '250.00' } },
  updatedPolicy: {
    id: POLICY_ID,
    name: 'Lends on L2s',
    scope: 'wallet',
    rules: { actions: ['lend'], chains: ['arbitrum-sepolia', 'base-sepolia'], maxUsdPerIntent: '250.00' },
    version: 2,
    createdAt: AT,
    updatedAt: '2026-02-01T09:30:00.000Z',
  },
  setWalletPolicy: { policyId: POLICY_ID },
  walletWithPolicy: { ...WALLET, policyId: POLICY_ID },
  lend: { walletId: WALLET_ID, action: 'lend', amount: '10.5', asset: 'USDC' },
  lendNetReturn: { walletId: WALLET_ID, action: 'lend', amount: '5', optimize: 'netReturn', horizonDays: 30 },
  preview: {
    walletId: WALLET_ID,
    action: 'lend',
    asset: 'USDC',
    requestedAmount: '10',
    requestedAmountUnits: '10000000',
    amount: '9.995',
    amountUnits: '9995000',
    strategy: 'single-bridge',
    reasoning:
      'Lend 10 USDC. USDC APY: base-sepolia/aave-v3 4.29% > arbitrum-sepolia/aave-v3 4.20%. Best: base-sepolia/aave-v3 at 4.29%. No USDC on base-sepolia yet; 1 bridge needed via CCTP: 10 USDC from arbitrum-sepolia (fee 0.005 USDC, 5 bps). Depositing 9.995 USDC of the 10 USDC requested after route fees.',
    choice: 'bestApy',
    horizonDays: 30,
    apy: 4.29,
    steps: [
      {
        index: 0,
        type: 'bridge',
        chain: 'arbitrum-sepolia',
        from: 'arbitrum-sepolia',
        to: 'base-sepolia',
        amount: '10',
        amountUnits: '10000000',
        routeFee: '0.005',
        routeFeeUnits: '5000',
        arrives: '9.995',
        arrivesUnits: '9995000',
        gas: {
          units: '198000',
          usd: 0.66,
          transactions: [
            { kind: 'approve', chain: 'arbitrum-sepolia', gas: '46400', gasUsd: 0.15, estimate: 'estimated' },
            { kind: 'burn', chain: 'arbitrum-sepolia', gas: '61600', gasUsd: 0.2, estimate: 'simulated' },
            { kind: 'mint', chain: 'base-sepolia', gas: '90000', gasUsd: 0.31, estimate: 'typical' },
          ],
        },
      },
      {
        index: 1,
        type: 'deposit',
        chain: 'base-sepolia',
        protocol: PROTOCOL_A,
        amount: '9.995',
        amountUnits: '9995000',
        routeFee: '0',
        routeFeeUnits: '0',
        arrives: '9.995',
        arrivesUnits: '9995000',
        apy: 4.29,
        expectedYearlyEarnings: '0.428785',
        gas: {
          units: '150000',
          usd: 0.5,
          transactions: [
            { kind: 'approve', chain: 'base-sepolia', gas: '46400', gasUsd: 0.15, estimate: 'estimated' },
            { kind: 'supply', chain: 'base-sepolia', gas: '103600', gasUsd: 0.35, estimate: 'simulated' },
          ],
        },
      },
    ],
    totals: { routeFees: '0.005', routeFeesUnits: '5000', gasUnits: '348000', gasUsd: 1.16, expectedYearlyEarnings: '0.428785' },
  },
  withdraw: { walletId: WALLET_ID, action: 'withdraw', amount: '5', asset: 'USDC', chain: 'arbitrum-sepolia' },
  bridge: { walletId: WALLET_ID, action: 'bridge', amount: '2.25', fromChain: 'base-sepolia', toChain: 'arbitrum-sepolia' },
  intent: {
    id: INTENT_ID,
    walletId: WALLET_ID,
    status: 'pending',
    action: 'lend',
    amount: 10.5,
    amountUnits: '10500000',
    requestedAmount: 10.5,
    requestedAmountUnits: '10500000',
    asset: 'USDC',
    executionPlan: null,
    createdAt: AT,
    updatedAt: AT,
    policy: { id: POLICY_ID, version: 1 },
  },
  completedIntent: {
    id: INTENT_ID,
    walletId: WALLET_ID,
    status: 'completed',
    action: 'lend',
    amount: 10.5,
    amountUnits: '10500000',
    requestedAmount: 10.5,
    requestedAmountUnits: '10500000',
    asset: 'USDC',
    executionPlan: {
      strategy: 'no-bridge',
      steps: [
        {
          type: 'deposit',
          protocol: PROTOCOL_A,
          asset: 'USDC',
          index: 0,
          status: 'completed',
          chain: 'arbitrum-sepolia',
          amount: '10.5',
          amountUnits: '10500000',
          txHash: `0x${'ab'.repeat(32)}`,
          gasUsed: '182000',
          gasCostUsd: 0.02,
        },
      ],
      reasoning:
        'Lend 10.5 USDC. USDC APY: arbitrum-sepolia/aave-v3 4.20% > ethereum-sepolia/compound-v3 3.10%. Best: arbitrum-sepolia/aave-v3 at 4.20%. 10.5 USDC already on arbitrum-sepolia: no bridge needed. Depositing 10.5 USDC.',
    },
    results: {
      completedSteps: 1,
      transactions: [
        {
          type: 'deposit',
          kind: 'supply',
          txHash: `0x${'ab'.repeat(32)}`,
          chain: 'arbitrum-sepolia',
          status: 'confirmed',
          gasUsed: '182000',
          gasCostUsd: 0.02,
        },
      ],
      totalGasUsed: '182000',
      totalGasCostUsd: 0.02,
      finalAmount: '10.5',
      apy: 4.2,
    },
    createdAt: AT,
    updatedAt: AT,
    completedAt: AT,
  },
  auditPage: {
    events: [
      {
        id: 'svc_audit_0123456789abcdef0123456789abcdef',
        at: AT,
        type: 'intent.created',
        actor: { type: 'apiKey', id: 'key_0123456789abcdef0123456789abcdef' },
        subject: { walletId: WALLET_ID, intentId: INTENT_ID },
        details: { action: 'lend', amount: '10.5', asset: 'USDC' },
      },
    ],
    nextCursor: null,
  },
  usage: {
    plan: 'free',
    credits: { used: 12, limit: 100, resetsAt: '2026-02-01T00:00:00.000Z' },
    rateWindow: { limit: 100, used: 3, remaining: 97, resetsAt: '2026-01-31T12:01:00.000Z' },
    wallets: { count: 3, limit: 100 },
  },
  fundDemo: { walletId: WALLET_ID },
  funding: { walletId: WALLET_ID, chain: 'arbitrum-sepolia', asset: 'USDC', amount: '1', txHash: `0x${'cd'.repeat(32)}`, status: 'submitted' },
} as const;

EXAMPLES satisfies Record<string, object>;

export const PAGE_EXAMPLE = {
  intents: [EXAMPLES.intent],
  pageInfo: { hasNextPage: false, endCursor: 'WyIyMDI2LTAxLTMxVDEyOjAwOjAwLjAwMFoiLCJpbnRlbnRfMDEyMyJd' },
};

export const POLICY_PAGE_EXAMPLE = {
  policies: [EXAMPLES.policy],
  pageInfo: { hasNextPage: true, endCursor: 'WyIyMDI2LTAxLTMxVDEyOjAwOjAwLjAwMFoiLCJzdmNfcG9saWN5XzAxMjMiXQ' },
};

/** Details an example of `code` carries (what the service sends, abridged). */
const DETAILS: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  INVALID_REQUEST: { issues: [{ path: 'amount', message: 'amount must be positive', code: 'custom' }] },
  INVALID_CHAIN: { chain: 'polygon', field: 'chain', supported: ['ethereum', 'arbitrum', 'base', 'ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'] },
  UNAUTHORIZED: { reason: 'missing' },
  PAYMENT_REQUIRED: { price: '0.001', asset: 'USDC', proofHeaders: ['PAYMENT-SIGNATURE', 'X-PAYMENT', 'X-Payment-Proof'] },
  PAYMENT_INVALID: { reason: 'nonce_already_used' },
  FORBIDDEN: { requiredScope: 'write', operation: 'createWallet' },
  PLAN_RESTRICTED: { plan: 'free', chain: 'ethereum' },
  WALLET_LIMIT_EXCEEDED: { plan: 'free', limit: 100 },
  CREDITS_EXHAUSTED: { limit: 100, used: 100, resetsAt: '2026-02-01T00:00:00.000Z' },
  POLICY_VIOLATION: { policyId: POLICY_ID, version: 2, rule: 'maxUsdPerIntent', limit: '250.00', requested: '300.00' },
  POLICY_NOT_FOUND: { policyId: POLICY_ID },
  POLICY_IN_USE: { policyId: POLICY_ID, walletCount: 3, accountPolicy: false },
  POLICY_CONFLICT: { policyId: POLICY_ID },
  VERSION_CONFLICT: { policyId: POLICY_ID },
  WALLET_NOT_FOUND: { walletId: WALLET_ID },
  WEBHOOK_NOT_FOUND: { webhookId: 'svc_webhook_0123456789abcdef0123456789abcdef' },
  STANDING_INTENT_NOT_FOUND: { standingIntentId: 'svc_standing_0123456789abcdef0123456789abcdef' },
  INTENT_NOT_FOUND: { intentId: INTENT_ID },
  WALLET_ALREADY_EXISTS: { userId: 'user_42', walletId: WALLET_ID },
  STANDING_INTENT_ALREADY_EXISTS: { walletId: WALLET_ID, asset: 'USDC', standingIntentId: 'svc_standing_0123456789abcdef0123456789abcdef' },
  IDEMPOTENCY_CONFLICT: { idempotencyKey: 'order-1234' },
  PAYLOAD_TOO_LARGE: { limitBytes: 1048576 },
  UNSUPPORTED_MEDIA_TYPE: { contentType: 'text/plain', expected: 'application/json' },
  RATE_LIMIT_EXCEEDED: { limit: 100, resetAt: 1769860860, retryAfterSeconds: 12 },
  FUNDING_LIMIT_EXCEEDED: { scope: 'wallet', limit: 10, windowHours: 24, retryAfterSeconds: 3600 },
  GAS_BUDGET_EXCEEDED: { budgetEth: '0.5', spentEth: '0.5', windowHours: 24, retryAfterSeconds: 3600 },
  BACKTEST_LIMIT_EXCEEDED: { scope: 'account', limit: 1, retryAfterSeconds: 5 },
  INTERNAL_ERROR: { requestId: 'req_0123456789abcdef0123456789abcdef' },
  NETWORK_ERROR: { chain: 'arbitrum-sepolia' },
  TIMEOUT: { chain: 'arbitrum-sepolia' },
};

/** An example error body of `code`. */
export function errorExample(code: ErrorCode): { error: ErrorCode; message: string; details: Record<string, unknown> } {
  const doc = CODE_DOCS[code].replace(/ \(.*\)$/, '');
  const message = code === 'INTERNAL_ERROR' ? 'An internal error occurred' : doc.charAt(0).toUpperCase() + doc.slice(1);
  return { error: code, message, details: DETAILS[code] ?? {} };
}

/** The x402 v1 requirements a 402 carries (abridged). */
export const X402_V1_ACCEPTS = [
  {
    scheme: 'exact',
    network: 'base-sepolia',
    maxAmountRequired: '1000',
    resource: 'http://127.0.0.1:3000/v1/yields',
    description: 'One read of the wallet and intents API (0.001 USDC)',
    mimeType: 'application/json',
    payTo: '0x52908400098527886E0F7030069857D2E4169EE7',
    maxTimeoutSeconds: 60,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  },
];
