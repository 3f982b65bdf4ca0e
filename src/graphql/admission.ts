import SchemaBuilder, {
  BasePlugin,
  type FieldNullability,
  type InputFieldMap,
  type InputShapeFromFields,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import {
  Kind,
  getArgumentValues,
  getOperationAST,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type SelectionSetNode,
} from 'graphql';
import type { GraphQLContext } from './context';
import type { Operation } from '../domain/plans';
import { runOperation } from '../app/accounts/admitRequest';
import { requirePrincipal } from './resolverHelpers';

/**
 * What a root field runs as: the service operation (the REST price table's
 * name) whose scope it needs and whose credits it spends, or, for a field
 * whose operation depends on what it is asked (`node`), a function of its
 * arguments (undefined: the field answers without running one).
 */
export type FieldAdmission<Args> = Operation | ((args: Args) => Operation | undefined);

// Pothos's way to add a field option: merged into its global namespace, with its type parameters as they are.
/* eslint-disable @typescript-eslint/no-namespace, @typescript-eslint/no-unused-vars */
declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      admission: AdmissionPlugin<Types>;
    }
    interface FieldOptions<
      Types extends SchemaTypes,
      ParentShape,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveShape,
      ResolveReturnShape,
    > {
      /** The operation the field runs as (admission.ts): its scope checked, its credits spent when it succeeds (a subscription: when it starts). */
      admission?: FieldAdmission<InputShapeFromFields<Args>>;
    }
  }
}
/* eslint-enable @typescript-eslint/no-namespace, @typescript-eslint/no-unused-vars */

type AnyResolver<Context = GraphQLContext> = GraphQLFieldResolver<unknown, Context, object>;

/** The field's admission, when it declares one. */
function admissionOf<Types extends SchemaTypes>(fieldConfig: PothosOutputFieldConfig<Types>): FieldAdmission<object> | undefined {
  return (fieldConfig.pothosOptions as { admission?: FieldAdmission<object> }).admission;
}

/**
 * `run` admitted as its field's operation: the caller required, then
 * runOperation (the scope checked, the credits prepaid with the whole GraphQL
 * operation consumed on success, or, with none prepaid, reserved here and
 * refunded if `run` throws). Prices and the callers allowed per field are
 * decided before execution (operationCost.ts); this is the per-field half.
 */
function admitted(admission: FieldAdmission<object>, run: AnyResolver): AnyResolver {
  return (parent, args, ctx, info) => {
    const principal = requirePrincipal(ctx);
    const operation = typeof admission === 'function' ? admission(args) : admission;
    if (operation === undefined) return run(parent, args, ctx, info);
    return runOperation(ctx.deps, principal, operation, async () => run(parent, args, ctx, info), ctx.charge);
  };
}

/**
 * The `admission` field option: a root field names its operation once and
 * this plugin wraps its resolver (queries, mutations) or its subscribe
 * (subscriptions: the events a stream then resolves are not charged again).
 */
export class AdmissionPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: AnyResolver<Types['Context']>, fieldConfig: PothosOutputFieldConfig<Types>): AnyResolver<Types['Context']> {
    const admission = admissionOf(fieldConfig);
    if (!admission || fieldConfig.kind === 'Subscription') return resolver;
    return admitted(admission, resolver as AnyResolver) as AnyResolver<Types['Context']>;
  }

  override wrapSubscribe(
    subscribe: AnyResolver<Types['Context']> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): AnyResolver<Types['Context']> | undefined {
    const admission = admissionOf(fieldConfig);
    if (!admission || !subscribe) return subscribe;
    return admitted(admission, subscribe as AnyResolver) as AnyResolver<Types['Context']>;
  }
}

SchemaBuilder.registerPlugin('admission', AdmissionPlugin);

/** The first field a selection set selects at its own level (inline fragments and fragment spreads followed). */
function rootFieldNode(set: SelectionSetNode, document: DocumentNode): FieldNode | undefined {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) return s;
    const fragment =
      s.kind === Kind.INLINE_FRAGMENT
        ? s
        : document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
    const found = fragment && rootFieldNode(fragment.selectionSet, document);
    if (found) return found;
  }
  return undefined;
}

/**
 * The operation a subscription's root field runs as, for a subscriber that
 * joins a stream another one started (sharedSubscriptions.ts): the joiner
 * never runs the field's subscribe, so it is admitted here as the field's
 * starter was. Undefined when the field declares no admission.
 */
export function subscriptionAdmission(args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName' | 'variableValues'>): Operation | undefined {
  const operation = getOperationAST(args.document, args.operationName ?? undefined);
  const root = operation && rootFieldNode(operation.selectionSet, args.document);
  const field = root && args.schema.getSubscriptionType()?.getFields()[root.name.value];
  if (!root || !field) return undefined;
  const admission = (field.extensions.pothosOptions as { admission?: FieldAdmission<object> } | undefined)?.admission;
  return typeof admission === 'function' ? admission(getArgumentValues(field, root, args.variableValues ?? undefined)) : admission;
}
