import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import type Router from '@koa/router';
import { dashboardRoutes } from './dashboardRoutes';
import { createDevProvider } from './devProvider';
import { createRelyingParty, type ProviderSettings } from './relyingParty';
import { loadDashboardBuild } from './staticFiles';

/** How people sign in to the dashboard: a hosted OpenID Connect provider, or the embedded development one (sandbox only). */
export type DashboardSignIn = { kind: 'hosted'; issuer: string; clientId: string; clientSecret?: string } | { kind: 'embedded' };

export interface Dashboard<S> {
  /** Mounted on the REST app, whose ctx.state is `S`. */
  router: Router<S>;
  /** The embedded development provider's handler for `/oidc/...` (sandbox only), else undefined. */
  oidc?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * The web dashboard: its routes, its sign-in provider settings, and (in
 * sandbox) the embedded development provider. `publicUrl` is read on first
 * use, since a service listening on port 0 knows its address only then.
 */
export function createDashboard<S>(o: {
  deps: Pick<AppDeps, 'store' | 'clock' | 'sessionSecret' | 'revocations'>;
  logger: Logger;
  signIn?: DashboardSignIn;
  publicUrl: () => string;
}): Dashboard<S> {
  const files = loadDashboardBuild();
  if (!files) o.logger.warn('dashboard: not built (npm run build writes dist/dashboard); /dashboard answers 503');
  const redirectUri = () => `${o.publicUrl()}/dashboard/auth/callback`;
  const devClient = { clientId: 'dashboard', clientSecret: randomBytes(24).toString('base64url') };

  let settings: (() => ProviderSettings) | undefined;
  let oidc: Dashboard<S>['oidc'];
  if (o.signIn?.kind === 'hosted') {
    const hosted = o.signIn;
    settings = () => ({ issuer: hosted.issuer, clientId: hosted.clientId, clientSecret: hosted.clientSecret, redirectUri: redirectUri(), development: false });
  } else if (o.signIn?.kind === 'embedded') {
    settings = () => ({ issuer: `${o.publicUrl()}/oidc`, ...devClient, redirectUri: redirectUri(), development: true });
    let provider: ReturnType<typeof createDevProvider> | undefined;
    oidc = (req, res) => {
      provider ??= createDevProvider({ issuer: `${o.publicUrl()}/oidc`, client: { ...devClient, redirectUri: redirectUri() } });
      return provider(req, res);
    };
  }
  const relyingParty = settings ? createRelyingParty(settings, o.deps.sessionSecret) : null;
  return { router: dashboardRoutes<S>({ deps: o.deps, logger: o.logger, files, relyingParty, publicUrl: o.publicUrl }), oidc };
}
