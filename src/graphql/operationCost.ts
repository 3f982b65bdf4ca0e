import { GraphQLError, Kind, getOperationAST, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import type { AppDeps } from '../app/deps';
import type { Principal } from '../app/accounts/principal';
import { prepayCredits, type PrepaidCredits } from '../app/accounts/credits';
import { billedOperations, creditsOf, rateUnitsOwed, workSurcharge } from '../app/accounts/billedOperations';
import { CREDIT_COST, PLANS, type Operation } from '../domain/plans';
import { toServiceError } from '../domain/errors/base';
import { toGraphQLError } from './errors';
import { countRequestUnits, retryAfterSeconds } from '../app/accounts/rateLimit';
import { rateLimitExceeded } from '../domain/errors/auth';
import type { GraphQLContext } from './context';
import { buildSchema } from './schema';
import { staticCost } from './staticCost';
import type { FieldAdmission } from './admission';

/**
 * What a root field whose operation depends on its arguments is prepaid as.
 * `node`: 1 credit, like walletById, intent and policy (each costs 1);
 * nothing when no node is found.
 */
const PREPAID_AS: Readonly<Record<string, Operation>> = { node: 'getWallet' };

/**
 * The service operation behind each root field, what it costs in credits
 * (CREDIT_COST): read from the field's own `admission` option (admission.ts),
 * so the price and the admission are one declaration. A unit test checks that
 * every root field of the schema has one, so a new field cannot be free by
 * omission.
 */
function rootFieldOperations(schema: GraphQLSchema): Record<string, Operation> {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => (t ? Object.values(t.getFields()) : []));
  return Object.fromEntries(
    roots.flatMap((f) => {
      const admission = (f.extensions.pothosOptions as { admission?: FieldAdmission<object> } | undefined)?.admission;
      if (admission === undefined) return [];
      if (typeof admission === 'string') return [[f.name, admission]];
      const prepaid = PREPAID_AS[f.name];
      if (prepaid === undefined) throw new Error(`GraphQL root field ${f.name} names its operation from its arguments: give it a price in PREPAID_AS`);
      return [[f.name, prepaid]];
    }),
  );
}

export const ROOT_FIELD_OPERATIONS: Readonly<Record<string, Operation>> = rootFieldOperations(buildSchema());

/**
 * Who may call each root field (docs/decisions.md, "dashboard"): the public API is
 * for API keys (and paid proofs); the dashboard's fields are for a signed-in
 * session only, which may also read yields, the audit log and manage the
 * account's webhook endpoints (the Webhooks page) and its standing intents
 * (the Standing intents page). Decided here, once, for every
 * transport, before any resolver runs. A unit test checks every root field
 * is listed.
 */
export const ROOT_FIELD_CALLERS: Readonly<Record<string, readonly Principal['via'][]>> = {
  wallet: ['apiKey', 'payment'],
  walletById: ['apiKey', 'payment'],
  node: ['apiKey'],
  balances: ['apiKey', 'payment'],
  yields: ['apiKey', 'payment', 'session'],
  intent: ['apiKey', 'payment'],
  intents: ['apiKey', 'payment'],
  createWallet: ['apiKey'],
  createIntent: ['apiKey'],
  previewIntent: ['apiKey'],
  cancelIntent: ['apiKey'],
  fundDemoWallet: ['apiKey'],
  intentUpdated: ['apiKey'],
  viewer: ['session'],
  createApiKey: ['session'],
  revokeApiKey: ['session'],
  viewerIntentUpdated: ['session'],
  auditEvents: ['apiKey', 'session'],
  policies: ['apiKey'],
  policy: ['apiKey'],
  createPolicy: ['apiKey'],
  updatePolicy: ['apiKey'],
  deletePolicy: ['apiKey'],
  setWalletPolicy: ['apiKey'],
  removeWalletPolicy: ['apiKey'],
  usage: ['apiKey'],
  webhookEndpoints: ['apiKey', 'session'],
  webhookEndpoint: ['apiKey'],
  webhookDeliveries: ['apiKey', 'session'],
  createWebhookEndpoint: ['apiKey', 'session'],
  deleteWebhookEndpoint: ['apiKey', 'session'],
  sendTestWebhook: ['apiKey', 'session'],
  yieldHistory: ['apiKey'],
  standingIntents: ['apiKey', 'session'],
  standingIntent: ['apiKey', 'session'],
  createStandingIntent: ['apiKey', 'session'],
  pauseStandingIntent: ['apiKey', 'session'],
  resumeStandingIntent: ['apiKey', 'session'],
  deleteStandingIntent: ['apiKey', 'session'],
  simulateStandingIntent: ['apiKey', 'session'],
  standingIntentDecisions: ['apiKey'],
};

/** FORBIDDEN naming the first root field this caller may not use, or null. */
function refusedField(principal: Principal, fields: readonly string[]): GraphQLError | null {
  const field = fields.find((f) => !(ROOT_FIELD_CALLERS[f] ?? []).includes(principal.via));
  if (field === undefined) return null;
  const message =
    principal.via === 'session'
      ? `${field} needs an API key: the dashboard session can only use the dashboard's fields`
      : `${field} is for the dashboard: sign in at /dashboard (API keys cannot use it)`;
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN', field } });
}

/** Root fields (aliases included) one operation may select, whatever the plan. */
export const MAX_ROOT_FIELDS = 20;
const rootFieldsSeen = new WeakMap<DocumentNode, Map<string | null | undefined, readonly string[]>>();

/**
 * The root fields an operation selects (fragments at the root followed), introspection fields left out.
 * Computed once per document and operation name (documents are cached per query text, so every request
 * of the same operation asks again).
 */
export function rootFields(document: DocumentNode, operationName?: string | null): readonly string[] {
  let byName = rootFieldsSeen.get(document);
  if (!byName) rootFieldsSeen.set(document, (byName = new Map()));
  let fields = byName.get(operationName);
  if (fields) return fields;
  fields = Object.freeze(walkRootFields(document, operationName));
  // A document names few operations; names beyond that are not kept (a client cannot grow the map at will).
  if (byName.size < 16) byName.set(operationName, fields);
  return fields;
}

function walkRootFields(document: DocumentNode, operationName?: string | null): string[] {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (!s.name.value.startsWith('__')) out.push(s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value); // a fragment spread twice at the root selects its fields once
        const f = fragments.get(s.name.value);
        if (f) walk(f.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return out;
}

/** What an operation costs: credits over its root fields, and how many it selects. */
export function operationCost(document: DocumentNode, operationName?: string | null): { cost: number; fields: number; operations: Operation[] } {
  const operations = rootFields(document, operationName).flatMap((f) => {
    const op = ROOT_FIELD_OPERATIONS[f];
    return op ? [op] : [];
  });
  return { cost: operations.reduce((sum, op) => sum + CREDIT_COST[op], 0), fields: operations.length, operations };
}

/**
 * The most work one operation may ask for, in units of fieldCosts.ts (one
 * unit: one field resolved from memory), whoever calls and on every
 * transport. Over it the operation is refused before anything runs.
 */
export const MAX_OPERATION_COST = 50_000;

/** Variables as a transport hands them. */
type Variables = Readonly<Record<string, unknown>> | null | undefined;

/** QUERY_TOO_COMPLEX when `work` units are over MAX_OPERATION_COST, with both in details. */
function overCeiling(work: number): GraphQLError | null {
  if (work <= MAX_OPERATION_COST) return null;
  return tooComplex(`it reads ${work} work units (at most ${MAX_OPERATION_COST}); ask for smaller pages or fewer fields`, {
    details: { cost: work, maxCost: MAX_OPERATION_COST },
  });
}

/**
 * The ceiling checked as soon as a document is parsed, before validation:
 * an operation over it costs its transport one parse and one walk of the
 * document, never the validation of thousands of fields. The same check runs
 * again in chargeOperation (for the documents no transport checked early).
 */
export function costCeilingRefusal(document: DocumentNode, operationName?: string | null, variables?: Variables): GraphQLError | null {
  return overCeiling(workOf(document, operationName, variables));
}

/** The last static cost computed per document, with what it was computed for: the early check's walk serves chargeOperation's. */
const lastWork = new WeakMap<DocumentNode, { operationName: string | null | undefined; variables: Variables; work: number }>();

/** staticCost of this operation, walked once per request (the same document, operation name and variables object). */
function workOf(document: DocumentNode, operationName?: string | null, variables?: Variables): number {
  const seen = lastWork.get(document);
  if (seen && seen.operationName === operationName && seen.variables === variables) return seen.work;
  const work = staticCost(buildSchema(), document, operationName, variables);
  lastWork.set(document, { operationName, variables, work });
  return work;
}

/**
 * Every transport's step between validation and execution: the operation's
 * cost checked and its credits reserved into `context.charge`; the error to
 * answer instead when it is refused (then nothing runs). Without a principal
 * there is nothing to charge: the resolvers refuse the call.
 */
export async function chargeInto(
  context: GraphQLContext,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Variables,
): Promise<GraphQLError | null> {
  if (!context.principal) return null;
  const r = await chargeOperation(context.deps, context.principal, document, operationName, variables);
  if (r.error) return r.error;
  const report = context.deps.onCreditsCharged;
  context.charge = r.charge && report ? reportingConsumed(r.charge, report) : r.charge;
  return null;
}

/**
 * `charge`, telling `report` of each field's credits as its success consumes
 * them (what is consumed is never given back). A new object delegating to
 * `charge`, not one whose prototype is `charge`: V8 turns an object made a
 * prototype into a slow one, which cost every charged GraphQL request ~2 %.
 */
function reportingConsumed(charge: PrepaidCredits, report: (operation: Operation, credits: number) => void): PrepaidCredits {
  return {
    consume(op) {
      const spent = charge.consume(op);
      if (spent > 0) report(op, spent);
      return spent;
    },
    release: () => charge.release(),
  };
}

/**
 * Checks an operation's cost before any resolver runs and prepays its
 * credits (prepayCredits: all or nothing, never a partial burn). Over
 * MAX_ROOT_FIELDS, over MAX_OPERATION_COST work units (staticCost: what it
 * reads, from the document and its variables), or over the plan's
 * maxOperationCost credits: QUERY_TOO_COMPLEX with the computed cost and the
 * ceiling in `details`; not enough credits left: CREDITS_EXHAUSTED for the
 * whole operation. Either way nothing ran and nothing was spent. Credits are
 * the root fields' plus workSurcharge for the work beyond their allowance. A
 * subscription has one root field and pays where it starts (shared streams
 * charge each joiner), so it is checked but not prepaid. Who pays for which
 * fields is billedOperations' rule (a session only for a few), the same one
 * REST's operation() follows.
 */
export async function chargeOperation(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  principal: Principal,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Variables,
): Promise<{ charge?: PrepaidCredits; error?: GraphQLError }> {
  const roots = rootFields(document, operationName);
  const refused = refusedField(principal, roots);
  if (refused) return { error: refused };
  const { fields, operations: selected } = operationCost(document, operationName);
  if (fields > MAX_ROOT_FIELDS || roots.length > MAX_ROOT_FIELDS) {
    const n = Math.max(fields, roots.length);
    const cost = creditsOf(selected);
    return {
      error: tooComplex(`${n} root fields (at most ${MAX_ROOT_FIELDS})`, {
        // cost and maxCost at the top are the credits, as before details came.
        ...(principal.via === 'session' ? {} : { cost, maxCost: PLANS[principal.account.plan].maxOperationCost }),
        rootFields: n,
        maxRootFields: MAX_ROOT_FIELDS,
        details: { rootFields: n, maxRootFields: MAX_ROOT_FIELDS },
      }),
    };
  }
  const work = workOf(document, operationName, variables);
  const over = overCeiling(work);
  if (over) return { error: over };
  // The dashboard's own operations cost the account nothing (the session has its own rate window), except those billedOperations names.
  const operations = billedOperations(principal, selected);
  if (principal.via === 'session' && operations.length === 0) return {};
  const rootCredits = creditsOf(operations);
  const surcharge = workSurcharge(principal, rootCredits, work);
  const cost = rootCredits + surcharge;
  const max = PLANS[principal.account.plan].maxOperationCost;
  if (cost > max) {
    return {
      error: tooComplex(`a cost of ${cost} credits (at most ${max} on the ${principal.account.plan} plan)`, {
        cost,
        maxCost: max,
        rootFields: fields,
        maxRootFields: MAX_ROOT_FIELDS,
        details: { credits: cost, maxCredits: max, cost: work, maxCost: MAX_OPERATION_COST },
      }),
    };
  }
  if (getOperationAST(document, operationName ?? undefined)?.operation === 'subscription') return {};
  // The rate window counts the operation by its cost (an API key's admission counted 1 of it), before any credit is taken.
  const units = rateUnitsOwed(principal, cost);
  if (units > 0) {
    const rate = await countRequestUnits(deps, principal.account, units);
    if (rate.exceeded) return { error: toGraphQLError(rateLimitExceeded(rate.limit, rate.reset, retryAfterSeconds(rate, deps.clock.now()))) };
  }
  try {
    return { charge: await prepayCredits(deps, principal.account, operations, surcharge) };
  } catch (e) {
    return { error: toGraphQLError(toServiceError(e)) };
  }
}

/** QUERY_TOO_COMPLEX (400), saying why; nothing ran. */
function tooComplex(why: string, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(`Operation too complex: ${why}. Split it into several operations.`, {
    extensions: { code: 'QUERY_TOO_COMPLEX', ...extensions },
  });
}
