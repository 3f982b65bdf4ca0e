import type Router from '@koa/router';
import type { Context } from 'koa';
import { createRouter } from '../http/router';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import { SESSION_TTL_MS, signIn, signOut } from '../app/dashboard/sessions';
import { SESSION_COOKIE, readCookie, refuseCrossSite, sessionCookieHeader } from '../http/sessionCookie';
import { PENDING_TTL_MS, SignInRefused, type createRelyingParty } from './relyingParty';
import type { StaticFile } from './staticFiles';
import { escapeHtml, htmlPage } from './pages';

const PENDING_COOKIE = 'svc_oidc';
/** The single-page app's pages (dashboard/src/router.tsx): each path serves the app, which shows that page. */
export const DASHBOARD_PAGES = ['keys', 'usage', 'wallets', 'intents', 'webhooks', 'yields', 'standing'] as const;
const CALLBACK_PATH = '/dashboard/auth/callback';

export interface DashboardRouteOptions {
  deps: Pick<AppDeps, 'store' | 'clock' | 'sessionSecret' | 'revocations'>;
  logger: Logger;
  /** The built app, or null when it was not built. */
  files: Map<string, StaticFile> | null;
  /** Null when no sign-in provider is configured. */
  relyingParty: ReturnType<typeof createRelyingParty> | null;
  /** The public origin (cookies are Secure under https; sign-in starts there). */
  publicUrl: () => string;
}

function page(ctx: Context, status: number, title: string, message: string): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = htmlPage(
    title,
    `<main class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/dashboard/login">Sign in again</a></p></main>`,
  );
}

const pendingCookie = (value: string, maxAgeSeconds: number, secure: boolean) =>
  [`${PENDING_COOKIE}=${value}`, `Path=${CALLBACK_PATH}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');

/**
 * The dashboard's own HTTP routes: sign-in (redirect to the provider, and
 * its callback), sign-out, and the single-page app. Everything the pages
 * show comes from the GraphQL gateway with the session cookie. `S` is the
 * state of the app they are mounted on (the REST app's); they read none of it.
 */
export function dashboardRoutes<S>(o: DashboardRouteOptions): Router<S> {
  const router = createRouter<S>();
  const secure = () => o.publicUrl().startsWith('https://');

  router.get('/dashboard/login', async (ctx) => {
    if (!o.relyingParty)
      return page(ctx, 503, 'Sign-in is not configured', 'Set OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and PUBLIC_URL to sign in with your provider.');
    // Cookies belong to one host name: start where the provider will send people back.
    const origin = new URL(o.publicUrl());
    if (ctx.host !== origin.host) return ctx.redirect(`${origin.origin}/dashboard/login`);
    let started;
    try {
      started = await o.relyingParty.start(o.deps.clock.now().getTime());
    } catch (err) {
      o.logger.warn({ err }, 'dashboard: the sign-in provider is not answering');
      return page(ctx, 503, 'Sign-in is unavailable', 'The sign-in provider did not answer. Try again in a moment.');
    }
    ctx.set('Set-Cookie', pendingCookie(started.pending, PENDING_TTL_MS / 1000, secure()));
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(started.url);
  });

  router.get(CALLBACK_PATH, async (ctx) => {
    if (!o.relyingParty) return page(ctx, 503, 'Sign-in is not configured', 'No sign-in provider is configured.');
    const clear = pendingCookie('', 0, secure());
    try {
      const callbackUrl = new URL(ctx.originalUrl, o.publicUrl());
      const identity = await o.relyingParty.finish(callbackUrl, readCookie(ctx.get('cookie'), PENDING_COOKIE), o.deps.clock.now().getTime());
      const session = await signIn(o.deps, identity);
      ctx.set('Set-Cookie', [clear, sessionCookieHeader(session.cookieValue, SESSION_TTL_MS / 1000, secure())]);
      o.logger.info({ userId: session.user.id, accountId: session.user.accountId }, 'dashboard sign-in');
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect('/dashboard/');
    } catch (err) {
      if (!(err instanceof SignInRefused)) throw err;
      o.logger.warn({ reason: err.message }, 'dashboard sign-in refused');
      ctx.set('Set-Cookie', clear);
      page(ctx, 400, 'Sign-in failed', `The sign-in could not be completed: ${err.message}.`);
    }
  });

  router.post('/dashboard/logout', async (ctx) => {
    const refused = refuseCrossSite(ctx.req, o.publicUrl());
    if (refused) throw refused;
    await signOut(o.deps, readCookie(ctx.get('cookie'), SESSION_COOKIE));
    ctx.set('Set-Cookie', sessionCookieHeader('', 0, secure()));
    ctx.status = 204;
  });

  const serve = (ctx: Context, name: string) => {
    if (!o.files) return page(ctx, 503, 'Dashboard not built', 'Run npm run build (npm start does it) to build the dashboard.');
    const file = o.files.get(name);
    if (!file) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    ctx.type = file.type;
    ctx.set('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.body = file.body;
  };
  // The app's own pages (client-side routes) get its page; its assets are served by exact name; nothing else is.
  router.get('/dashboard', (ctx) => ctx.redirect('/dashboard/'));
  router.get('/dashboard/', (ctx) => serve(ctx, 'index.html'));
  for (const p of DASHBOARD_PAGES) router.get(`/dashboard/${p}`, (ctx) => serve(ctx, 'index.html'));
  router.get('/dashboard/assets/:file', (ctx) => serve(ctx, `assets/${String(ctx.params.file)}`));
  return router;
}
