import type { CreateIntentParams } from './schemas/intent';
import type { CreateStandingParams } from './schemas/standing';

/**
 * The commands the use cases take: what a request asks, validated, with no
 * transport left in it. Each door builds them (REST from its JSON body, GraphQL
 * from its input, the standing-intent decider from its decision); the use case
 * never sees a body and never answers a status.
 */

/** Create a lend, withdraw, bridge or rebalance intent (amounts as plain decimal strings in token units). */
export type CreateIntentCommand = CreateIntentParams;

/** Create a standing intent for a wallet's asset. */
export type CreateStandingIntentCommand = CreateStandingParams;

/**
 * The one field list of a create-intent request beyond walletId, action,
 * amount and asset, in the order records keep them. `route`: where the funds
 * go (chains, target market, a rebalance's sources); `mode`: how they are
 * chosen and moved. What the intent records (askedOf), what planning reads
 * (planningRequestOf) and what the audit log records (intent.created: the
 * route only) are all derived from it.
 */
export const INTENT_REQUEST_FIELDS = {
  route: ['chain', 'fromChain', 'toChain', 'toProtocol', 'sources'],
  mode: ['optimize', 'horizonDays', 'speed'],
} as const;

export type IntentRouteField = (typeof INTENT_REQUEST_FIELDS.route)[number];
export type IntentModeField = (typeof INTENT_REQUEST_FIELDS.mode)[number];

/** The fields of `from` among `fields` that are present (undefined ones left out), in the list's order. */
export function presentFields<T extends object, K extends keyof T>(from: T, fields: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const field of fields) if (from[field] !== undefined) out[field] = from[field];
  return out;
}
