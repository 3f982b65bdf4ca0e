import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Principal } from '../app/accounts/principal';

/** What middleware leaves on `ctx.state` for the handlers. */
export interface RestState {
  requestId: string;
  principal?: Principal;
  /** The JSON body, parsed and size-checked by jsonBody(). */
  body?: unknown;
}

export type RestContext = RouterContext<RestState>;
export type RestRouter = Router<RestState>;
