import { gql } from '@urql/core';

/**
 * Every GraphQL operation the dashboard sends. Each is POSTed to /graphql
 * with the session cookie (see client.ts); none carries an API key.
 */

export type Scope = 'READ' | 'WRITE';

/** The assets markets lend (the GraphQL TokenAsset enum); native ETH is held, not lent. */
export const TOKEN_ASSETS = ['USDC', 'USDT', 'DAI', 'WETH'] as const;
export type ApiKeyStatus = 'ACTIVE' | 'REVOKED';
export type IntentStatus = 'CANCELLED' | 'COMPLETED' | 'EXECUTING' | 'FAILED' | 'PENDING' | 'PLANNING';
export type StepStatus = 'COMPLETED' | 'EXECUTING' | 'FAILED' | 'PENDING';

export interface Viewer {
  email: string;
  environment: string;
  account: { id: string; plan: string };
}

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  status: ApiKeyStatus;
  revokedAt: string | null;
}

export interface AccountUsage {
  credits: { used: number; limit: number | null; resetsAt: string };
  wallets: { count: number; limit: number | null };
  rateWindow: { limit: number; used: number; remaining: number; resetsAt: string };
  requestsPerMinute: number;
  history: { minute: string; requests: number }[];
}

export interface WalletSummary {
  id: string;
  userId: string;
  address: string;
  chains: string[];
  createdAt: string;
  totalValueUsd: number | null;
}

export interface Step {
  __typename: string;
  index: number;
  chain: string;
  status: StepStatus;
  amount: string;
  txHash: string | null;
  lastError: { code: string; message: string } | null;
  /** BridgeStep only. */
  from?: string;
  to?: string;
  /** DepositStep and WithdrawStep only. */
  protocol?: string;
  asset?: string;
}

export interface Intent {
  id: string;
  walletId: string;
  action: 'BRIDGE' | 'LEND' | 'WITHDRAW';
  amount: string;
  requestedAmount: string;
  asset: string;
  chain: string | null;
  fromChain: string | null;
  toChain: string | null;
  status: IntentStatus;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  error: { code: string; message: string } | null;
  executionPlan: { strategy: string; steps: Step[] } | null;
}

export interface YieldRate {
  chain: string;
  protocol: string;
  asset: string;
  apy: number;
}

export interface YieldReport {
  best: (YieldRate & { reasoning: string }) | null;
  rates: YieldRate[];
}

export const VIEWER_QUERY = gql<{ viewer: Viewer }>`
  query DashboardViewer {
    viewer {
      email
      environment
      account {
        id
        plan
      }
    }
  }
`;

const API_KEY_FIELDS = gql`
  fragment DashboardApiKey on ApiKey {
    id
    name
    prefix
    scopes
    createdAt
    lastUsedAt
    status
    revokedAt
  }
`;

export const KEYS_QUERY = gql<{ viewer: { account: { id: string; keys: ApiKey[] } } }>`
  query DashboardKeys {
    viewer {
      account {
        id
        keys {
          ...DashboardApiKey
        }
      }
    }
  }
  ${API_KEY_FIELDS}
`;

export const CREATE_KEY_MUTATION = gql<{ createApiKey: { key: string; apiKey: ApiKey } }, { name: string; scopes: Scope[] }>`
  mutation DashboardCreateApiKey($name: String!, $scopes: [Scope!]) {
    createApiKey(name: $name, scopes: $scopes) {
      key
      apiKey {
        ...DashboardApiKey
      }
    }
  }
  ${API_KEY_FIELDS}
`;

export const REVOKE_KEY_MUTATION = gql<{ revokeApiKey: ApiKey }, { id: string }>`
  mutation DashboardRevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      ...DashboardApiKey
    }
  }
  ${API_KEY_FIELDS}
`;

export const USAGE_QUERY = gql<{ viewer: { account: { id: string; plan: string; usage: AccountUsage } } }>`
  query DashboardUsage {
    viewer {
      account {
        id
        plan
        usage {
          credits {
            used
            limit
            resetsAt
          }
          wallets {
            count
            limit
          }
          rateWindow {
            limit
            used
            remaining
            resetsAt
          }
          requestsPerMinute
          history(minutes: 60) {
            minute
            requests
          }
        }
      }
    }
  }
`;

export const WALLETS_QUERY = gql<{ viewer: { account: { id: string; wallets: WalletSummary[] } } }>`
  query DashboardWallets {
    viewer {
      account {
        id
        wallets {
          id
          userId
          address
          chains
          createdAt
          totalValueUsd
        }
      }
    }
  }
`;

const INTENT_FIELDS = gql`
  fragment DashboardIntent on Intent {
    id
    walletId
    action
    amount
    requestedAmount
    asset
    chain
    fromChain
    toChain
    status
    createdAt
    updatedAt
    completedAt
    error {
      code
      message
    }
    executionPlan {
      strategy
      steps {
        __typename
        index
        chain
        status
        amount
        txHash
        lastError {
          code
          message
        }
        ... on BridgeStep {
          from
          to
        }
        ... on DepositStep {
          protocol
          asset
        }
        ... on WithdrawStep {
          protocol
          asset
        }
      }
    }
  }
`;

export const INTENTS_QUERY = gql<{ viewer: { account: { id: string; intents: Intent[] } } }, { first: number }>`
  query DashboardIntents($first: Int) {
    viewer {
      account {
        id
        intents(first: $first) {
          ...DashboardIntent
        }
      }
    }
  }
  ${INTENT_FIELDS}
`;

export const INTENT_UPDATES_SUBSCRIPTION = gql<{ viewerIntentUpdated: Intent }>`
  subscription DashboardIntentUpdates {
    viewerIntentUpdated {
      ...DashboardIntent
    }
  }
  ${INTENT_FIELDS}
`;

export const YIELDS_QUERY = gql<{ yields: YieldReport | null }, { asset?: string | null }>`
  query DashboardYields($asset: TokenAsset) {
    yields(asset: $asset) {
      best {
        chain
        protocol
        asset
        apy
        reasoning
      }
      rates {
        chain
        protocol
        asset
        apy
      }
    }
  }
`;

export type WebhookEventType = 'INTENT_COMPLETED' | 'INTENT_FAILED' | 'INTENT_CANCELLED' | 'INTENT_UPDATED';
export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  createdAt: string;
}

export interface WebhookDelivery {
  id: string;
  eventType: WebhookEventType | 'WEBHOOK_TEST';
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const WEBHOOK_FIELDS = gql`
  fragment DashboardWebhookEndpoint on WebhookEndpoint {
    id
    url
    events
    description
    createdAt
  }
`;

const DELIVERY_FIELDS = gql`
  fragment DashboardWebhookDelivery on WebhookDelivery {
    id
    eventType
    status
    attempts
    lastStatusCode
    lastError
    nextAttemptAt
    createdAt
    deliveredAt
  }
`;

export const WEBHOOKS_QUERY = gql<{ webhookEndpoints: WebhookEndpoint[] | null }>`
  query DashboardWebhooks {
    webhookEndpoints {
      ...DashboardWebhookEndpoint
    }
  }
  ${WEBHOOK_FIELDS}
`;

export const WEBHOOK_DELIVERIES_QUERY = gql<
  { webhookDeliveries: { edges: { node: WebhookDelivery }[]; pageInfo: { hasNextPage: boolean } } | null },
  { endpointId: string; first: number }
>`
  query DashboardWebhookDeliveries($endpointId: ID!, $first: Int) {
    webhookDeliveries(endpointId: $endpointId, first: $first) {
      edges {
        node {
          ...DashboardWebhookDelivery
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
  ${DELIVERY_FIELDS}
`;

export const CREATE_WEBHOOK_MUTATION = gql<
  { createWebhookEndpoint: { secret: string; endpoint: WebhookEndpoint } | null },
  { input: { url: string; events: WebhookEventType[]; description?: string } }
>`
  mutation DashboardCreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      secret
      endpoint {
        ...DashboardWebhookEndpoint
      }
    }
  }
  ${WEBHOOK_FIELDS}
`;

export const DELETE_WEBHOOK_MUTATION = gql<{ deleteWebhookEndpoint: boolean | null }, { id: string }>`
  mutation DashboardDeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`;

export const SEND_TEST_WEBHOOK_MUTATION = gql<{ sendTestWebhook: WebhookDelivery | null }, { endpointId: string }>`
  mutation DashboardSendTestWebhook($endpointId: ID!) {
    sendTestWebhook(endpointId: $endpointId) {
      ...DashboardWebhookDelivery
    }
  }
  ${DELIVERY_FIELDS}
`;

export type StandingStatus = 'ACTIVE' | 'PAUSED';
export type StandingOutcome = 'REBALANCED' | 'SKIPPED';
export type StandingSkipReason = 'NO_FUNDS' | 'ALREADY_BEST' | 'BELOW_THRESHOLD' | 'UNCONFIRMED_RATE' | 'MOVE_LIMIT' | 'POLICY' | 'INTENT_IN_FLIGHT' | 'PAUSED';

/** A lending market (GraphQL spelling: BASE_SEPOLIA, AAVE_V3). */
export interface Market {
  chain: string;
  protocol: string;
}

export interface MarketWithApy extends Market {
  apy: number;
}

export interface StandingDecision {
  id: string;
  sampleAt: string;
  decidedAt: string;
  trigger: 'RATE_SAMPLE' | 'FUNDS_ARRIVED';
  outcome: StandingOutcome;
  reason: StandingSkipReason | null;
  rule: string | null;
  intentId: string | null;
  numbers: {
    target: MarketWithApy | null;
    sources: { chain: string; protocol: string | null; amount: string; apy: number }[];
    amount: string;
    costs: { withdrawGasUsd: number; bridgeFeeUsd: number; bridgeGasUsd: number; depositGasUsd: number; totalUsd: number };
    gainUsd: number;
    netGainUsd: number;
    thresholdUsd: number;
    horizonDays: number;
  };
}

export interface StandingIntent {
  id: string;
  walletId: string;
  asset: string;
  amount: string | null;
  horizonDays: number;
  minGainUsd: number;
  maxMovesPerDay: number;
  status: StandingStatus;
  createdAt: string;
  updatedAt: string;
  lastDecisionAt: string | null;
  lastIntentId: string | null;
  /** The newest decision only (first: 1), for the list's "last decision" column. */
  decisions: { edges: { node: Pick<StandingDecision, 'id' | 'sampleAt' | 'outcome' | 'reason'> }[] };
}

export interface PageCursor {
  hasNextPage: boolean;
  endCursor: string | null;
}

const STANDING_FIELDS = gql`
  fragment DashboardStandingIntent on StandingIntent {
    id
    walletId
    asset
    amount
    horizonDays
    minGainUsd
    maxMovesPerDay
    status
    createdAt
    updatedAt
    lastDecisionAt
    lastIntentId
    decisions(first: 1) {
      edges {
        node {
          id
          sampleAt
          outcome
          reason
        }
      }
    }
  }
`;

/** Standing intents shown on one page: the account's limit is 100, so one page holds them all. */
export const STANDING_INTENTS_QUERY = gql<{ standingIntents: { edges: { node: StandingIntent }[]; pageInfo: PageCursor } | null }, { first: number }>`
  query DashboardStandingIntents($first: Int) {
    standingIntents(first: $first) {
      edges {
        node {
          ...DashboardStandingIntent
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${STANDING_FIELDS}
`;

export interface CreateStandingVariables {
  walletId: string;
  asset: string;
  amount?: string;
  horizonDays?: number;
  minGainUsd?: number;
  maxMovesPerDay?: number;
}

export const CREATE_STANDING_MUTATION = gql<{ createStandingIntent: StandingIntent | null }, CreateStandingVariables>`
  mutation DashboardCreateStandingIntent($walletId: ID!, $asset: TokenAsset!, $amount: String, $horizonDays: Int, $minGainUsd: Float, $maxMovesPerDay: Int) {
    createStandingIntent(
      walletId: $walletId
      asset: $asset
      amount: $amount
      horizonDays: $horizonDays
      minGainUsd: $minGainUsd
      maxMovesPerDay: $maxMovesPerDay
    ) {
      ...DashboardStandingIntent
    }
  }
  ${STANDING_FIELDS}
`;

export const PAUSE_STANDING_MUTATION = gql<{ pauseStandingIntent: StandingIntent | null }, { id: string }>`
  mutation DashboardPauseStandingIntent($id: ID!) {
    pauseStandingIntent(id: $id) {
      ...DashboardStandingIntent
    }
  }
  ${STANDING_FIELDS}
`;

export const RESUME_STANDING_MUTATION = gql<{ resumeStandingIntent: StandingIntent | null }, { id: string }>`
  mutation DashboardResumeStandingIntent($id: ID!) {
    resumeStandingIntent(id: $id) {
      ...DashboardStandingIntent
    }
  }
  ${STANDING_FIELDS}
`;

export const DELETE_STANDING_MUTATION = gql<{ deleteStandingIntent: boolean | null }, { id: string }>`
  mutation DashboardDeleteStandingIntent($id: ID!) {
    deleteStandingIntent(id: $id)
  }
`;

export const STANDING_DECISIONS_QUERY = gql<
  { standingIntent: { id: string; decisions: { edges: { cursor: string; node: StandingDecision }[]; pageInfo: PageCursor } } | null },
  { id: string; first: number; after?: string | null }
>`
  query DashboardStandingDecisions($id: ID!, $first: Int, $after: String) {
    standingIntent(id: $id) {
      id
      decisions(first: $first, after: $after) {
        edges {
          cursor
          node {
            id
            sampleAt
            decidedAt
            trigger
            outcome
            reason
            rule
            intentId
            numbers {
              target {
                chain
                protocol
                apy
              }
              sources {
                chain
                protocol
                amount
                apy
              }
              amount
              costs {
                withdrawGasUsd
                bridgeFeeUsd
                bridgeGasUsd
                depositGasUsd
                totalUsd
              }
              gainUsd
              netGainUsd
              thresholdUsd
              horizonDays
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

export interface Earnings {
  earnedUsd: number;
  costsUsd: number;
  netUsd: number;
}

export interface Simulation {
  from: string;
  to: string;
  samples: number;
  moves: { at: string; from: MarketWithApy; to: MarketWithApy; amount: string; costUsd: number; netGainUsd: number }[];
  strategy: Earnings;
  /** market: null when the window holds no sample. */
  todaysBest: Earnings & { market: Market | null };
  firstMarket: Earnings & { market: Market | null };
  /** points: [at, apy] pairs, oldest first. */
  series: (Market & { points: [string, number][] })[];
  /** [at, strategyUsd, firstMarketUsd] per sample. */
  cumulative: [string, number, number][];
}

export interface SimulateVariables {
  asset: string;
  amount: string;
  horizonDays?: number;
  minGainUsd?: number;
  maxMovesPerDay?: number;
  from: string;
  to: string;
}

const EARNINGS_FIELDS = gql`
  fragment DashboardStayedEarnings on StayedEarnings {
    market {
      chain
      protocol
    }
    earnedUsd
    costsUsd
    netUsd
  }
`;

export const SIMULATE_STANDING_MUTATION = gql<{ simulateStandingIntent: Simulation | null }, SimulateVariables>`
  mutation DashboardSimulateStandingIntent(
    $asset: TokenAsset!
    $amount: String!
    $horizonDays: Int
    $minGainUsd: Float
    $maxMovesPerDay: Int
    $from: DateTime
    $to: DateTime
  ) {
    simulateStandingIntent(
      asset: $asset
      amount: $amount
      horizonDays: $horizonDays
      minGainUsd: $minGainUsd
      maxMovesPerDay: $maxMovesPerDay
      from: $from
      to: $to
    ) {
      from
      to
      samples
      moves {
        at
        from {
          chain
          protocol
          apy
        }
        to {
          chain
          protocol
          apy
        }
        amount
        costUsd
        netGainUsd
      }
      strategy {
        earnedUsd
        costsUsd
        netUsd
      }
      todaysBest {
        ...DashboardStayedEarnings
      }
      firstMarket {
        ...DashboardStayedEarnings
      }
      series {
        chain
        protocol
        points
      }
      cumulative
    }
  }
  ${EARNINGS_FIELDS}
`;
