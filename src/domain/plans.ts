/**
 * Plans of docs/api-guide.md, "Limits, plans and credits". `null` means unlimited. Enterprise's rate is
 * "custom": 10,000/min unless the account sets its own.
 */
export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  requestsPerMinute: number;
  wallets: number | null;
  creditsPerMonth: number | null;
  mainNetworks: boolean;
  /** Credits one GraphQL operation may cost (its root fields priced like their REST twins). */
  maxOperationCost: number;
  /** Open WebSocket connections one account may hold on one instance. */
  maxSockets: number;
  /** Live subscriptions one account may hold on one instance, all its sockets together. */
  maxSubscriptions: number;
}

export const PLANS: Record<PlanName, Plan> = {
  free: {
    name: 'free',
    requestsPerMinute: 100,
    wallets: 100,
    creditsPerMonth: 100,
    mainNetworks: false,
    maxOperationCost: 10,
    maxSockets: 5,
    maxSubscriptions: 50,
  },
  pro: {
    name: 'pro',
    requestsPerMinute: 1000,
    wallets: 10_000,
    creditsPerMonth: 10_000,
    mainNetworks: true,
    maxOperationCost: 50,
    maxSockets: 50,
    maxSubscriptions: 500,
  },
  enterprise: {
    name: 'enterprise',
    requestsPerMinute: 10_000,
    wallets: null,
    creditsPerMonth: null,
    mainNetworks: true,
    maxOperationCost: 200,
    maxSockets: 500,
    maxSubscriptions: 5_000,
  },
};

/**
 * Credits per operation (the API endpoint table; docs/decisions.md: demo fund costs 1).
 * getUsage is free: reading how many credits are left must not spend them
 * (it still counts in the rate window, like every request).
 */
export const CREDIT_COST = {
  createWallet: 1,
  getWallet: 1,
  getBalances: 1,
  getYields: 1,
  getYieldHistory: 1,
  createIntent: 5,
  cancelIntent: 1,
  previewIntent: 1,
  getIntent: 1,
  listIntents: 1,
  watchIntent: 1,
  fundDemo: 1,
  listAuditEvents: 1,
  createPolicy: 1,
  getPolicy: 1,
  listPolicies: 1,
  updatePolicy: 1,
  deletePolicy: 1,
  setWalletPolicy: 1,
  removeWalletPolicy: 1,
  getUsage: 0,
  createWebhook: 1,
  listWebhooks: 1,
  getWebhook: 1,
  deleteWebhook: 1,
  listWebhookDeliveries: 1,
  sendTestWebhook: 1,
  createStandingIntent: 1,
  listStandingIntents: 1,
  getStandingIntent: 1,
  pauseStandingIntent: 1,
  resumeStandingIntent: 1,
  deleteStandingIntent: 1,
  listStandingDecisions: 1,
  getStandingEarnings: 1,
  // a replay of up to 90 days of samples through the decision: heavier than a read of one record
  simulateStandingIntent: 5,
} as const;
export type Operation = keyof typeof CREDIT_COST;

/** Operations that write: need the `write` scope and are never payable by proof. */
export const WRITE_OPERATIONS: ReadonlySet<Operation> = new Set([
  'createWallet',
  'createIntent',
  'cancelIntent',
  'fundDemo',
  'createPolicy',
  'updatePolicy',
  'deletePolicy',
  'setWalletPolicy',
  'removeWalletPolicy',
  'createWebhook',
  'deleteWebhook',
  'sendTestWebhook',
  'createStandingIntent',
  'pauseStandingIntent',
  'resumeStandingIntent',
  'deleteStandingIntent',
]);

/**
 * docs/api-guide.md, "Paying per request": the reads a client without an account may pay for
 * per request (x402). Their REST routes carry these names, so the front door
 * decides by the route that matched, never by a path string.
 */
export const PAYABLE_OPERATIONS: ReadonlySet<Operation> = new Set(['getWallet', 'getBalances', 'getYields', 'getIntent']);
