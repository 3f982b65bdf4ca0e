import { gql } from '@urql/core';

/**
 * Every GraphQL operation the dashboard sends. Each is POSTed to /graphql
 * with the session cookie (see client.ts); none carries an API key.
 */

export type Scope = 'READ' | 'WRITE';
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
