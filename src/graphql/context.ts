import type { AppDeps } from '../app/deps';
import type { Principal } from '../app/accounts/principal';
import type { PrepaidCredits } from '../app/accounts/credits';

/** Per-request GraphQL context: the same use-case deps as REST plus who is calling. */
export interface GraphQLContext {
  deps: AppDeps;
  /** Set by the HTTP dispatcher (or the WebSocket connection) after admission. */
  principal: Principal | null;
  requestId: string;
  /** The `Idempotency-Key` header of the HTTP request, if any. */
  idempotencyKey?: string;
  /** The operation's credits, prepaid by its transport (operationCost.ts); each successful field consumes its share, release() returns the rest. */
  charge?: PrepaidCredits;
  /** Reads already made by this operation, by field and arguments: aliases of one read share it (once()). */
  reads?: Map<string, Promise<unknown>>;
  /** The turn the operation's last page waits for (connection.ts nextTurn): its pages run one a turn. */
  turns?: Promise<void>;
}
