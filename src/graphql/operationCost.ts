import { GraphQLError, Kind, getOperationAST, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { AppDeps } from '../app/deps';
import type { Principal } from '../app/accounts/principal';
import { reserveCreditUnits } from '../app/accounts/credits';
import { CREDIT_COST, type Operation, type PlanName } from '../domain/plans';
import { toGraphQLError } from './errors';
import type { GraphQLContext } from './context';

/**
 * The service operation behind each root field: what it costs in credits
 * (CREDIT_COST). A unit test checks that every root field of the schema is
 * here, so a new field cannot be free by omission.
 */
export const ROOT_FIELD_OPERATIONS: Readonly<Record<string, Operation>> = {
  wallet: 'getWallet',
  walletById: 'getWallet',
  balances: 'getBalances',
  yields: 'getYields',
  intent: 'getIntent',
  intents: 'listIntents',
  createWallet: 'createWallet',
  createIntent: 'createIntent',
  fundDemoWallet: 'fundDemo',
  intentUpdated: 'watchIntent',
};

/** Root fields (aliases included) one operation may select, whatever the plan. */
export const MAX_ROOT_FIELDS = 20;
/** Credits one operation may cost, per plan. */
export const MAX_COST: Readonly<Record<PlanName, number>> = { free: 10, pro: 50, enterprise: 200 };

/** The root fields an operation selects (fragments at the root followed), introspection fields left out. */
export function rootFields(document: DocumentNode, operationName?: string | null): string[] {
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
 * The credits of one operation, reserved up front. Each root field that
 * succeeds consumes its share; `release()` (once the operation answered)
 * gives back the rest: fields that failed, and those a failed non-null
 * mutation field kept from running. Credits are spent on successes only.
 */
export interface OperationCharge {
  consume(operation: Operation): void;
  refund(operation: Operation): Promise<void>;
  release(): Promise<void>;
}

/** Marks an operation whose fields charge for themselves (subscriptions). */
const NOT_PREPAID = undefined as unknown as OperationCharge;

/**
 * Every transport's step between validation and execution: the operation's
 * cost checked and its credits reserved into `context.charge`; the error to
 * answer instead when it is refused (then nothing runs). Without a principal
 * there is nothing to charge: the resolvers refuse the call.
 */
export async function chargeInto(context: GraphQLContext, document: DocumentNode, operationName?: string | null): Promise<GraphQLError | null> {
  if (!context.principal) return null;
  const r = await chargeOperation(context.deps, context.principal, document, operationName);
  if ('error' in r) return r.error;
  if (r.charge) context.charge = r.charge;
  return null;
}

/**
 * Checks an operation's cost before any resolver runs and reserves its
 * credits in one conditional update: all or nothing, never a partial burn.
 * Over MAX_ROOT_FIELDS or the plan's MAX_COST: QUERY_TOO_COMPLEX with the
 * computed cost; not enough credits left: CREDITS_EXHAUSTED for the whole
 * operation. Either way nothing ran and nothing was spent.
 */
export async function chargeOperation(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  principal: Principal,
  document: DocumentNode,
  operationName?: string | null,
): Promise<{ charge: OperationCharge } | { error: GraphQLError }> {
  const { cost, fields } = operationCost(document, operationName);
  const max = MAX_COST[principal.account.plan];
  if (fields > MAX_ROOT_FIELDS || cost > max) {
    const why = fields > MAX_ROOT_FIELDS ? `${fields} root fields (at most ${MAX_ROOT_FIELDS})` : `a cost of ${cost} credits (at most ${max} on the ${principal.account.plan} plan)`;
    return {
      error: new GraphQLError(`Operation too complex: ${why}. Split it into several operations.`, {
        extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost: max, rootFields: fields, maxRootFields: MAX_ROOT_FIELDS },
      }),
    };
  }
  // A subscription has one root field and pays per subscription where it starts (shared streams charge each joiner).
  if (getOperationAST(document, operationName ?? undefined)?.operation === 'subscription') return { charge: NOT_PREPAID };
  try {
    const reserved = await reserveCreditUnits(deps, principal.account, cost);
    let consumed = 0;
    let released = false;
    return {
      charge: {
        consume: (op) => {
          consumed += CREDIT_COST[op];
        },
        refund: async () => undefined, // a failed field consumed nothing: release() gives its share back
        release: async () => {
          if (released) return;
          released = true;
          await reserved.refund(Math.max(0, cost - consumed));
        },
      },
    };
  } catch (e) {
    return { error: toGraphQLError(e as never) };
  }
}
