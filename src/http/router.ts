import Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * Every router of the REST app (the dashboard's too) is built here:
 * case-sensitive and strict, so `/V1/…`, `/Admin/…` and `/v1/yields/` are
 * 404s, as the API's paths are written. `S` is what the app's middleware
 * leaves on `ctx.state` (the REST door's RestState).
 *
 * Why this matters (@koa/router 15.7): a route's regexp is compiled with
 * the router's `sensitive` option (default false, so `/i`), but the regexp of
 * a `router.use()` middleware under a prefix is always case-sensitive. With
 * the defaults `/Admin/accounts` matched the route and skipped the `use()`
 * guard. Guards are therefore attached to each route (guardEveryRoute), and
 * routers never match more spellings than the paths they were given.
 */
export function createRouter<S>(opts: { prefix?: string } = {}): Router<S> {
  return new Router<S>({ ...opts, sensitive: true, strict: true });
}

/**
 * Puts `guards` in front of the handlers of every route registered on
 * `router` so far (nested routers included, once mounted): the guard runs
 * exactly when, and only when, a handler of this router answers. Call it after
 * the last route is registered and before mounting the router elsewhere.
 */
export function guardEveryRoute<S>(router: Router<S>, ...guards: Middleware<S>[]): Router<S> {
  for (const layer of router.stack) {
    if (layer.methods.length === 0) throw new Error(`guardEveryRoute: ${layer.path} is a use() middleware; guard routes only`);
    layer.stack.unshift(...(guards as typeof layer.stack));
    GUARDED.add(layer.stack[0]!);
  }
  return router;
}

/** The first middleware of every guarded route (layers are cloned when mounted; their middleware is not). */
const GUARDED = new WeakSet<object>();

/** One registered route, as a route walk or a document generator reads it. */
export interface RouteInfo {
  method: string;
  path: string;
  /** Whether guardEveryRoute put a guard in front of its handler. */
  guarded: boolean;
  /** The route's name: every `/v1` operation route is named after its operation (payable reads are found, and credits counted, by it). */
  name?: string;
}

/** Every route registered on `router` (nested routers included), read from the router itself. */
export function listRoutes<S>(router: Router<S>): RouteInfo[] {
  return router.stack.flatMap((layer) =>
    layer.methods
      .filter((m) => m !== 'HEAD')
      .map((method) => ({ method, path: String(layer.path), guarded: GUARDED.has(layer.stack[0]!), ...(layer.name ? { name: layer.name } : {}) })),
  );
}
