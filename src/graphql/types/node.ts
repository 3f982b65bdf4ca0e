import { builder } from '../builder';
import { requirePrincipal } from '../resolverHelpers';
import { getWalletById } from '../../app/wallets/getWallet';
import { toWalletView } from '../../app/wallets/walletView';
import { getIntent } from '../../app/intents/getIntent';
import { getPolicy } from '../../app/policies/managePolicies';
import { getStandingIntent } from '../../app/standing/manageStanding';
import { ID_PREFIX } from '../../domain/ids';
import { ServiceError } from '../../domain/errors/base';
import type { Operation } from '../../domain/plans';

/**
 * Global object identification (the Relay `Node` interface, as GitHub and
 * Shopify publish it).
 *
 * Decision: the global id of an object is its service id as-is, the same
 * string REST uses. Those ids are already globally unique (128 random bits)
 * and typed by their prefix (svc_wallet_…, intent_…, svc_policy_…), so a
 * base64 "Type:id" wrapper would add nothing but a second spelling of every
 * id between the two doors. The prefix decides the type: NODE_TYPES.
 */
export const NODE_TYPES = [
  { prefix: ID_PREFIX.wallet, type: 'Wallet' },
  { prefix: ID_PREFIX.intent, type: 'Intent' },
  { prefix: ID_PREFIX.policy, type: 'Policy' },
  { prefix: ID_PREFIX.standing, type: 'StandingIntent' },
] as const;

export type NodeTypeName = (typeof NODE_TYPES)[number]['type'];

/** The GraphQL type an id names, by its prefix; undefined for anything else. */
export function nodeTypeOf(id: string): NodeTypeName | undefined {
  return NODE_TYPES.find((n) => id.startsWith(n.prefix))?.type;
}

const NODE_OPERATIONS: Readonly<Record<NodeTypeName, Operation>> = {
  Wallet: 'getWallet',
  Intent: 'getIntent',
  Policy: 'getPolicy',
  StandingIntent: 'getStandingIntent',
};

/** The operation `node(id:)` runs as for this id: its type's read; undefined when the id names no type. */
function nodeOperation(id: string): Operation | undefined {
  const type = nodeTypeOf(id);
  return type && NODE_OPERATIONS[type];
}

export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description:
    'An object with a global id: fetch it again with `node(id:)`. Global ids are the service ids as REST shows them ' +
    '(svc_wallet_…, intent_…, svc_policy_…, svc_standing_…): globally unique, and typed by their prefix.',
  resolveType: (n) => nodeTypeOf(n.id) ?? null,
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The global id: the same id REST uses, globally unique, its prefix naming the type.' }),
  }),
});

builder.queryField('node', (t) =>
  t.field({
    type: NodeRef,
    nullable: true,
    description:
      "Any object of the caller's account by its global id: a Wallet (svc_wallet_…), an Intent (intent_…), a Policy (svc_policy_…) or a StandingIntent (svc_standing_…). " +
      'Null with the error of the typed field when there is none (WALLET_NOT_FOUND, INTENT_NOT_FOUND, POLICY_NOT_FOUND, STANDING_INTENT_NOT_FOUND: ' +
      "another account's object answers the same), or NOT_FOUND when the id names no type. Costs 1 credit when found.",
    args: { id: t.arg.id({ required: true, description: 'A global id, as `id` of any Node.' }) },
    // The operation of the type the id names (priced as getWallet before execution: each costs 1); none when it names no type.
    admission: (args) => nodeOperation(String(args.id)),
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const id = String(args.id);
      switch (nodeTypeOf(id)) {
        case 'Wallet':
          return toWalletView(await getWalletById(ctx.deps, principal, id));
        case 'Intent':
          return getIntent(ctx.deps, principal, id);
        case 'Policy':
          return getPolicy(ctx.deps, principal, id);
        case 'StandingIntent':
          return getStandingIntent(ctx.deps, principal, id);
        default:
          throw new ServiceError('NOT_FOUND', 'Node not found: the id names no type of this API', { details: { id } });
      }
    },
  }),
);
