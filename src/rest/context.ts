import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Principal } from '../app/accounts/principal';

/** What middleware leaves on `ctx.state` for the handlers. */
export interface RestState {
  requestId: string;
  principal?: Principal;
  /** The JSON body, parsed and size-checked by jsonBody(). */
  body?: unknown;
  /**
   * The account's credits used this month as this request last saw them (its
   * reservation or refund, or a usage read): X-Credits-Remaining is computed
   * from it, so only an answer that saw none reads the counter.
   */
  creditsUsed?: number;
}

export type RestContext = RouterContext<RestState>;
export type RestRouter = Router<RestState>;
