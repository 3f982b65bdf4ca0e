/**
 * A browser's side of the dashboard sign-in, with fetch: redirects followed
 * by hand, cookies kept in a jar (by name; the service is one host), the
 * development provider's form filled in. Used by the dashboard's e2e tests
 * and benches; the browser test drives the same flow in Chromium.
 */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Takes every Set-Cookie of an answer (Max-Age=0 or an empty value removes). */
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface Step {
  status: number;
  location: string | null;
  text: string;
}

/** One request with the jar's cookies, not following redirects. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Step> {
  const headers = new Headers(init.headers);
  if (jar.cookies.size > 0) headers.set('cookie', jar.header());
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(res);
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

/** Follows redirects from `url` (GET) until an answer that is not one; returns it and the URL that gave it. */
export async function follow(jar: CookieJar, url: string, stopAt?: (url: URL) => boolean): Promise<Step & { url: string }> {
  let current = url;
  for (let hops = 0; hops < 15; hops++) {
    if (stopAt?.(new URL(current))) return { status: 0, location: null, text: '', url: current };
    const step = await browse(jar, current);
    if (step.status < 300 || step.status >= 400 || !step.location) return { ...step, url: current };
    current = new URL(step.location, current).href;
  }
  throw new Error(`too many redirects from ${url}`);
}

/** Opens sign-in, fills the development provider's form with `email`, and posts it: the URL the provider sends the browser on to. */
async function submitEmail(base: string, email: string, jar: CookieJar): Promise<string> {
  const form = await follow(jar, `${base}/dashboard/login`);
  if (form.status !== 200 || !form.text.includes('Sign in')) throw new Error(`no sign-in form: ${form.status} ${form.text.slice(0, 200)}`);
  const action = /action="([^"]+)"/.exec(form.text)?.[1];
  if (!action) throw new Error('sign-in form without action');
  const posted = await browse(jar, new URL(action, form.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  if (!posted.location) throw new Error(`sign-in post: ${posted.status} ${posted.text.slice(0, 200)}`);
  return new URL(posted.location, form.url).href;
}

/** Signs in to the dashboard at `base` with the development provider: the jar then holds the session cookie. */
export async function signIn(base: string, email: string, jar = new CookieJar()): Promise<CookieJar> {
  const landed = await follow(jar, await submitEmail(base, email, jar));
  if (!jar.cookies.has('svc_session')) throw new Error(`no session after sign-in: ${landed.status} ${landed.url} ${landed.text.slice(-500)}`);
  return jar;
}

/** Runs the sign-in up to the provider's redirect to the callback, and returns that callback URL unvisited (to tamper with it). */
export async function signInUntilCallback(base: string, email: string, jar = new CookieJar()): Promise<{ jar: CookieJar; callback: URL }> {
  const stopped = await follow(jar, await submitEmail(base, email, jar), (u) => u.pathname === '/dashboard/auth/callback');
  return { jar, callback: new URL(stopped.url) };
}

/** A dashboard GraphQL request as the app sends it: POST, JSON, X-Requested-With, the session cookie. */
export async function dashboardGql(base: string, jar: CookieJar, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'dashboard', cookie: jar.header(), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] } };
}
