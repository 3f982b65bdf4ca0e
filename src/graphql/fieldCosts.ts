import { CHAIN_NAMES, LENDING_PROTOCOLS } from '../domain/chains';
import { MAX_REBALANCE_SOURCES } from '../domain/intent';
import { MAX_WEBHOOK_ENDPOINTS } from '../domain/webhooks';
import { MAX_HISTORY_BUCKETS, TARGET_HISTORY_BUCKETS } from '../app/yields/getYieldHistory';
import { DEFAULT_PAGE, MAX_PAGE } from './types/connection';

/**
 * What each field of the schema costs to resolve, in work units (docs/api-guide.md,
 * "What an operation costs"), in the words of IBM's GraphQL cost directives
 * (`@cost(weight)`, `@listSize(assumedSize, slicingArguments, sizedFields)`), which
 * schema.graphql prints on every field named here.
 *
 * One unit is one field resolved from what is already in memory; a field whose
 * resolver reads the store or a chain weighs what that read costs. A list costs
 * its length times its selection: a page by its `first`/`last` (or the default
 * page), a list the service bounds by its bound. A unit test checks that every
 * list field of the schema is here, so a new list cannot be priced as one item.
 */

/** Arguments of a field as the operation gives them (literals and variables resolved); absent ones are undefined. */
export type Args = Readonly<Record<string, unknown>>;

export interface ListSize {
  /** Arguments whose value is the length (IBM's slicingArguments): the largest one given counts. */
  slicingArguments?: readonly string[];
  /** The length when no slicing argument is given (the default page), or the most the list holds. */
  assumedSize: number;
  /** The longest a slicing argument makes it: beyond, the use case refuses the page or clamps it before any read. */
  max?: number;
  /** The child lists this size applies to (IBM's sizedFields): a connection's `edges`. */
  sizedFields?: readonly string[];
  /** A length other arguments decide, its own or those of the nearest enclosing field that has arguments: overrides the rest. */
  sizeOf?: (args: Args, enclosingArgs: Args) => number;
  /** The list is one of sizedFields: its parent connection multiplies it, it adds no length of its own. */
  sizedByParent?: boolean;
}

export interface FieldCost {
  /** Units of resolving the field itself (default 1). */
  weight?: number;
  /** How long the list is (list fields and connections). */
  listSize?: ListSize;
  /** A connection paged backward (`last`/`before`) scans up to this many more reads of MAX_PAGE items (connection.ts, MAX_BACKWARD_SCAN). */
  backwardWeight?: number;
}

/** Resolving any field from memory. */
export const DEFAULT_FIELD_WEIGHT = 1;
/** A resolver that reads the store (a page, a record). */
const STORE_READ = 10;
/** A resolver that reads chains or several services (balances, rates, a plan, a transaction sent). */
const CHAIN_READ = 100;

const MARKETS = CHAIN_NAMES.length * LENDING_PROTOCOLS.length;
/** Keys an account holds at most (MAX_KEYS_PER_ACCOUNT of the accounts use cases; the number, not the import, so that the constant may move). */
const KEYS_PER_ACCOUNT = 50;
/** Steps of a plan as they are in practice (a consolidation from every test chain); the schema's lists of steps are priced at this length. */
const PLAN_STEPS = 8;

/** A Relay connection: one store read, `edges` as long as `first`/`last` (default page, at most MAX_PAGE); backward paging scans up to nine more reads. */
const connection = (weight = STORE_READ): FieldCost => ({
  weight,
  listSize: { slicingArguments: ['first', 'last'], assumedSize: DEFAULT_PAGE, max: MAX_PAGE, sizedFields: ['edges'] },
  backwardWeight: 9 * STORE_READ,
});
const edges: FieldCost = { listSize: { assumedSize: MAX_PAGE, sizedByParent: true } };
const bounded = (assumedSize: number, weight?: number): FieldCost => ({ ...(weight !== undefined && { weight }), listSize: { assumedSize } });
const given = (v: unknown): boolean => v !== undefined && v !== null;

/** The series of a yield history: one per market the filters leave. */
function seriesOf(_args: Args, parent: Args): number {
  if (given(parent.chain) && given(parent.protocol)) return 1;
  if (given(parent.chain)) return LENDING_PROTOCOLS.length;
  if (given(parent.protocol)) return CHAIN_NAMES.length;
  return MARKETS;
}

/**
 * A JSON scalar answers a whole object (an audit event's details, a wallet's
 * metadata, a delivery's payload): priced as the handful of values such an
 * object holds, not as one leaf, so that aliasing it stays within its price.
 */
const JSON_VALUE: FieldCost = { weight: 10 };

/** Fields that cost other than DEFAULT_FIELD_WEIGHT, and every list. Keyed `Type.field`. */
export const FIELD_COSTS: Readonly<Record<string, FieldCost>> = {
  // JSON values (JSON_VALUE): every field of the JSON scalar type; a unit sweep keeps the list whole.
  'AuditEvent.details': JSON_VALUE,
  'IntentError.details': JSON_VALUE,
  'SimulatedApySeries.points': JSON_VALUE,
  'StandingSimulation.cumulative': JSON_VALUE,
  'Wallet.metadata': JSON_VALUE,
  'WebhookDelivery.payload': JSON_VALUE,
  // Root fields: each one use case.
  'Query.auditEvents': connection(),
  'Query.balances': { weight: CHAIN_READ },
  'Query.intent': { weight: STORE_READ },
  'Query.intents': connection(),
  'Query.node': { weight: STORE_READ },
  'Query.policies': connection(),
  'Query.policy': { weight: STORE_READ },
  'Query.previewIntent': { weight: CHAIN_READ },
  'Query.standingIntent': { weight: STORE_READ },
  'Query.standingIntents': connection(),
  'Query.usage': { weight: STORE_READ },
  'Query.viewer': { weight: STORE_READ },
  'Query.wallet': { weight: STORE_READ },
  'Query.walletById': { weight: STORE_READ },
  'Query.webhookDeliveries': connection(),
  'Query.webhookEndpoint': { weight: STORE_READ },
  'Query.webhookEndpoints': bounded(MAX_WEBHOOK_ENDPOINTS, STORE_READ),
  'Query.yieldHistory': { weight: CHAIN_READ },
  'Query.yields': { weight: CHAIN_READ },
  'Mutation.cancelIntent': { weight: STORE_READ },
  'Mutation.createApiKey': { weight: STORE_READ },
  'Mutation.createIntent': { weight: CHAIN_READ },
  'Mutation.createPolicy': { weight: STORE_READ },
  'Mutation.createStandingIntent': { weight: STORE_READ },
  'Mutation.createWallet': { weight: STORE_READ },
  'Mutation.createWebhookEndpoint': { weight: STORE_READ },
  'Mutation.deletePolicy': { weight: STORE_READ },
  'Mutation.deleteStandingIntent': { weight: STORE_READ },
  'Mutation.deleteWebhookEndpoint': { weight: STORE_READ },
  'Mutation.fundDemoWallet': { weight: CHAIN_READ },
  'Mutation.pauseStandingIntent': { weight: STORE_READ },
  'Mutation.removeWalletPolicy': { weight: STORE_READ },
  'Mutation.resumeStandingIntent': { weight: STORE_READ },
  'Mutation.revokeApiKey': { weight: STORE_READ },
  'Mutation.sendTestWebhook': { weight: STORE_READ },
  'Mutation.setWalletPolicy': { weight: STORE_READ },
  'Mutation.simulateStandingIntent': { weight: 10 * CHAIN_READ },
  'Mutation.updatePolicy': { weight: STORE_READ },
  'Subscription.intentUpdated': { weight: STORE_READ },
  'Subscription.standingIntentDecisions': { weight: STORE_READ },
  'Subscription.viewerIntentUpdated': { weight: STORE_READ },

  // Nested fields whose resolvers read.
  'StandingIntent.decisions': connection(),
  // The positions read on chain and every rebalance of the wallet since the standing intent was created.
  'StandingIntent.earnings': { weight: 10 * CHAIN_READ },
  'Wallet.policy': { weight: STORE_READ },
  'ViewerAccount.usage': { weight: STORE_READ },
  'ViewerAccount.keys': bounded(KEYS_PER_ACCOUNT, STORE_READ),
  'ViewerAccount.wallets': bounded(MAX_PAGE, STORE_READ),
  'ViewerAccount.intents': { weight: STORE_READ, listSize: { slicingArguments: ['first'], assumedSize: DEFAULT_PAGE, max: MAX_PAGE } },

  // Connections' pages: as long as their connection's first/last.
  'AuditEventConnection.edges': edges,
  'IntentConnection.edges': edges,
  'PolicyConnection.edges': edges,
  'StandingDecisionConnection.edges': edges,
  'StandingIntentConnection.edges': edges,
  'WebhookDeliveryConnection.edges': edges,

  // Lists the service bounds.
  'AccountUsage.history': { listSize: { slicingArguments: ['minutes'], assumedSize: 60, max: 1_440 } },
  'ApiKey.scopes': bounded(2),
  'BalanceReport.chains': bounded(CHAIN_NAMES.length),
  'ChainBalances.positions': bounded(LENDING_PROTOCOLS.length),
  'ChainBalances.tokens': bounded(5),
  'ExecutionPlan.steps': bounded(PLAN_STEPS),
  'FundingReceipt.warnings': bounded(2),
  'Intent.sources': bounded(MAX_REBALANCE_SOURCES),
  'IntentPreview.alternatives': bounded(2),
  'IntentPreview.speeds': bounded(2),
  'IntentPreview.steps': bounded(PLAN_STEPS),
  'IntentResults.transactions': bounded(PLAN_STEPS),
  'IntentTransaction.replacedTxHashes': bounded(5),
  'NetReturnRanking.ranking': bounded(MARKETS),
  'PolicyRules.actions': bounded(4),
  'PolicyRules.chains': bounded(CHAIN_NAMES.length),
  'PolicyRules.protocols': bounded(LENDING_PROTOCOLS.length),
  'PreviewStepGas.transactions': bounded(4),
  'StandingDecisionNumbers.sources': bounded(MAX_REBALANCE_SOURCES),
  'StandingSimulation.moves': bounded(100),
  'StandingSimulation.series': bounded(MARKETS),
  'Wallet.chains': bounded(CHAIN_NAMES.length),
  'WalletSummary.chains': bounded(CHAIN_NAMES.length),
  'WebhookEndpoint.events': bounded(4),
  'YieldHistory.series': { listSize: { assumedSize: MARKETS, sizeOf: seriesOf } },
  // The default bucket makes at most TARGET_HISTORY_BUCKETS of the window; one asked for, at most MAX_HISTORY_BUCKETS.
  'YieldHistorySeries.buckets': {
    listSize: { assumedSize: MAX_HISTORY_BUCKETS, sizeOf: (_a, parent) => (given(parent.bucket) ? MAX_HISTORY_BUCKETS : TARGET_HISTORY_BUCKETS) },
  },
  'YieldReport.rates': bounded(MARKETS),
};

/** The cost of `type.field`: its entry, or the default weight. */
export const fieldCost = (typeName: string, fieldName: string): FieldCost => FIELD_COSTS[`${typeName}.${fieldName}`] ?? {};
