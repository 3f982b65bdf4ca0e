import type { GraphQLSchema } from 'graphql';
import { builder } from './builder';
import './types/scalars';
import './types/enums';
import './types/wallet';
import './types/balances';
import './types/yields';
import './types/funding';
import './types/intent/type';
import './types/intent/plan';
import './types/intent/results';
import './types/intent/inputs';
import './types/intent/queries';
import './types/intent/mutations';
import './types/intentPreview';
import './types/intent/subscriptions';
import './types/viewer';
import './types/policies';
import './types/audit';
import './types/usage';
import './types/webhooks';
import './types/yieldHistory';
import './types/standingIntents/markets';
import './types/standingIntents/decisions';
import './types/standingIntents/type';
import './types/standingIntents/simulation';
import './types/standingIntents/inputs';
import './types/standingIntents/queries';
import './types/standingIntents/mutations';
import './types/standingIntents/subscriptions';

let schema: GraphQLSchema | undefined;

/** Builds the Pothos schema once (type files register on import). */
export function buildSchema(): GraphQLSchema {
  schema ??= builder.toSchema({ sortSchema: true });
  return schema;
}
