import { Provider, useQuery } from '@urql/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CSRF_HEADERS, createDashboardClient, isUnauthorized } from './client';
import { ErrorNotice } from './components';
import { LiveContext } from './context';
import { VIEWER_QUERY, type Viewer } from './documents';
import { IntentsPage } from './pages/intents';
import { KeysPage } from './pages/keys';
import { StandingPage } from './pages/standing';
import { UsagePage } from './pages/usage';
import { WebhooksPage } from './pages/webhooks';
import { WalletsPage } from './pages/wallets';
import { YieldsPage } from './pages/yields';
import { BASE, Link, PAGES, useLocation, type RouteLocation } from './router';

export const APP_NAME = 'Developer Console';

/** Paths the service answers itself: always full-page navigations, never SPA routes. */
const LOGIN_PATH = `${BASE}login`;
const LOGOUT_PATH = `${BASE}logout`;

export function App() {
  // Set by any answer saying the session is missing or expired.
  const [signedOut, setSignedOut] = useState(false);
  const dashboard = useMemo(() => createDashboardClient(() => setSignedOut(true)), []);

  useEffect(() => () => dashboard.dispose(), [dashboard]);
  useEffect(() => {
    if (signedOut) dashboard.dispose();
  }, [signedOut, dashboard]);

  if (signedOut) return <SignedOut />;
  return (
    <Provider value={dashboard.client}>
      <LiveContext.Provider value={dashboard.live}>
        <Root />
      </LiveContext.Provider>
    </Provider>
  );
}

function Root() {
  const [result, retry] = useQuery({ query: VIEWER_QUERY });
  if (result.data) return <SignedIn viewer={result.data.viewer} />;
  if (result.error) {
    if (isUnauthorized(result.error)) return <SignedOut />;
    return (
      <main id="main" class="centered">
        <div class="signin-card">
          <p class="brand">{APP_NAME}</p>
          <h1>Something went wrong</h1>
          <ErrorNotice error={result.error} onRetry={() => retry({ requestPolicy: 'network-only' })} />
        </div>
      </main>
    );
  }
  return (
    <main id="main" class="centered">
      <p class="muted" role="status">
        Loading…
      </p>
    </main>
  );
}

function SignedOut() {
  useEffect(() => {
    document.title = `Sign in · ${APP_NAME}`;
  }, []);
  return (
    <main id="main" class="centered">
      <div class="signin-card">
        <p class="brand">{APP_NAME}</p>
        <h1>Welcome</h1>
        <p class="muted">Sign in to manage your API keys and to follow your usage, wallets, intents and yields.</p>
        <a class="button button-block" href={LOGIN_PATH}>
          Sign in
        </a>
      </div>
    </main>
  );
}

function titleOf(location: RouteLocation): string {
  const page = PAGES.find((p) => p.route === location.route);
  return page ? page.label : 'Page not found';
}

function SignedIn({ viewer }: { viewer: Viewer }) {
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => {
    document.title = `${titleOf(location)} · ${APP_NAME}`;
    // After a client-side navigation, focus the new page's heading (not on the first load).
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
    window.scrollTo(0, 0);
  }, [location]);

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar-row">
          <div class="brand-group">
            <span class="brand">{APP_NAME}</span>
            <EnvironmentBadge environment={viewer.environment} />
          </div>
          <UserMenu email={viewer.email} />
        </div>
        <nav class="nav" aria-label="Main">
          <ul>
            {PAGES.map((p) => (
              <li key={p.route}>
                <Link route={p.route} aria-current={location.route === p.route ? 'page' : undefined}>
                  {p.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" class="content">
        <Page location={location} />
      </main>
    </>
  );
}

function Page({ location }: { location: RouteLocation }) {
  switch (location.route) {
    case 'keys':
      return <KeysPage />;
    case 'usage':
      return <UsagePage />;
    case 'wallets':
      return <WalletsPage />;
    case 'intents':
      return <IntentsPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'yields':
      return <YieldsPage />;
    case 'standing':
      return <StandingPage />;
    default:
      return (
        <section aria-labelledby="page-title">
          <h1 id="page-title" class="page-title" tabIndex={-1}>
            Page not found
          </h1>
          <p class="muted">
            Nothing lives at <code>{location.path}</code>. <Link route="keys">Go to the start page</Link>
          </p>
        </section>
      );
  }
}

function EnvironmentBadge({ environment }: { environment: string }) {
  const env = environment.toLowerCase();
  const known = env === 'production' || env === 'staging' || env === 'development' ? env : 'other';
  return (
    <span class={`env env-${known}`} title={`Environment: ${env}`}>
      <span class="visually-hidden">Environment: </span>
      {env}
    </span>
  );
}

function UserMenu({ email }: { email: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);

  const signOut = async () => {
    setBusy(true);
    setError(false);
    try {
      await fetch(LOGOUT_PATH, { method: 'POST', headers: { ...CSRF_HEADERS }, credentials: 'same-origin' });
    } catch {
      setError(true);
      setBusy(false);
      return;
    }
    window.location.assign(BASE);
  };

  return (
    <div class="user">
      <span class="email" title={email}>
        {email}
      </span>
      <button type="button" class="button button-secondary button-small" onClick={signOut} disabled={busy} aria-busy={busy}>
        Sign out
      </button>
      {error && (
        <span class="error-text" role="alert">
          Sign-out failed: the service could not be reached.
        </span>
      )}
    </div>
  );
}
