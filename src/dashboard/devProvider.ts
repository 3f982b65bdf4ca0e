import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadOidcProvider } from './esm';
import { escapeHtml, htmlPage } from './pages';

/** The embedded provider's one client: the dashboard itself. */
export interface DevClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

const FORM_LIMIT = 4 * 1024;
const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}$/;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The sign-in page: any e-mail address signs in (development only; nothing is sent to it). */
function signInPage(uid: string, error?: string): string {
  return htmlPage(
    'Sign in (development provider)',
    `<main class="card">
  <h1>Sign in</h1>
  <p>Development sign-in: enter any e-mail address. No password, and no mail is sent.</p>
  ${error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : ''}
  <form method="post" action="/oidc/interaction/${escapeHtml(uid)}/login">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required autofocus>
    <button type="submit">Sign in</button>
  </form>
</main>`,
  );
}

/**
 * The development OpenID Connect provider at `/oidc` (sandbox only): a real
 * oidc-provider (authorization code with PKCE, signed ID tokens) whose
 * sign-in page takes any e-mail address. The subject is derived from the
 * address, so the same address is the same user across restarts. Its own
 * state (sessions, codes, signing key) lives in memory.
 */
export function createDevProvider(o: { issuer: string; client: DevClient }) {
  const { default: Provider } = loadOidcProvider();
  const emails = new Map<string, string>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };

  const provider = new Provider(o.issuer, {
    clients: [
      {
        client_id: o.client.clientId,
        client_secret: o.client.clientSecret,
        redirect_uris: [o.client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const email = emails.get(sub);
      if (!email) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email, email_verified: true }) };
    },
    // The dashboard asks for a fresh sign-in each time: signing out and in again can change the address.
    ttl: { Session: 12 * 60 * 60, Interaction: 10 * 60, Grant: 12 * 60 * 60, AccessToken: 10 * 60, IdToken: 10 * 60, AuthorizationCode: 60 },
  });
  provider.proxy = false;
  // A failed request is answered by the provider itself; its log line would only repeat it.
  provider.on('server_error', () => undefined);
  const providerCallback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const [uid, action] = rest.split('/');
    const details = await provider.interactionDetails(req, res);
    if (!uid || details.uid !== uid) throw new Error('interaction mismatch');
    const prompt = details.prompt.name;
    if (prompt === 'login') {
      if (req.method === 'GET' && action === undefined) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(signInPage(uid));
        return;
      }
      if (req.method === 'POST' && action === 'login') {
        const email = (await readForm(req)).get('email')?.trim().toLowerCase() ?? '';
        if (!EMAIL.test(email)) {
          res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
          res.end(signInPage(uid, 'Enter an e-mail address, like you@example.com'));
          return;
        }
        const sub = `dev-${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;
        emails.set(sub, email);
        await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
        return;
      }
    }
    if (prompt === 'consent') {
      // The dashboard is this provider's only client, first-party: consent is given on the person's behalf.
      const accountId = details.session?.accountId;
      if (!accountId) throw new Error('consent without a session');
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) throw new Error('grant not found');
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, details.grantId ? {} : { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Unexpected sign-in step');
  }

  /** Answers a request under /oidc (its path still carries the prefix). */
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').slice('/oidc'.length);
    if (path.startsWith('/interaction/')) {
      try {
        await interaction(req, res, path.slice('/interaction/'.length).split('?')[0]!);
      } catch {
        if (res.headersSent) return void res.end();
        res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(htmlPage('Sign-in expired', '<main class="card"><h1>Sign-in expired</h1><p><a href="/dashboard/login">Start again</a></p></main>'));
      }
      return;
    }
    // Mounted like Express does it: the provider sees its own paths, and originalUrl tells it the mount point.
    const mounted = req as IncomingMessage & { originalUrl?: string };
    mounted.originalUrl = req.url;
    req.url = path === '' ? '/' : path;
    await providerCallback(req, res);
  };
}
