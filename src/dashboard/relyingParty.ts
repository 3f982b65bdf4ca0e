import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VerifiedIdentity } from '../app/dashboard/sessions';
import { loadOpenIdClient } from './esm';

/** What the browser carries between the redirect to the provider and the callback (signed, 10 minutes). */
interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  exp: number;
}

/** The provider this deployment signs people in with. */
export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  /** The embedded development provider: plain http is allowed, and every sign-in asks for the address again. */
  development: boolean;
}

export const PENDING_TTL_MS = 10 * 60 * 1000;

/** Refused callbacks: a forged, stale or mismatched state, nonce or verifier, or a code the provider will not exchange. */
export class SignInRefused extends Error {
  override readonly name = 'SignInRefused';
}

const mac = (secret: Buffer, data: string) => createHmac('sha256', secret).update(`oidc-pending:${data}`).digest('base64url');

function seal(secret: Buffer, p: PendingSignIn): string {
  const data = Buffer.from(JSON.stringify(p)).toString('base64url');
  return `${data}.${mac(secret, data)}`;
}

function unseal(secret: Buffer, value: string | undefined, now: number): PendingSignIn {
  if (!value || value.length > 2_000) throw new SignInRefused('no sign-in in progress in this browser');
  const [data, sig] = value.split('.');
  const expected = Buffer.from(mac(secret, data ?? ''));
  if (!data || !sig || Buffer.byteLength(sig) !== expected.length || !timingSafeEqual(Buffer.from(sig), expected))
    throw new SignInRefused('sign-in state was altered');
  const p = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as PendingSignIn;
  if (typeof p.exp !== 'number' || p.exp < now) throw new SignInRefused('sign-in took too long; start again');
  return p;
}

/**
 * The dashboard as an OpenID Connect relying party (openid-client):
 * authorization code flow with PKCE (S256), state and nonce, all three kept
 * in a signed, short-lived cookie and checked on the callback, the ID token
 * verified by openid-client. The provider's metadata is discovered on first
 * use and kept.
 */
export function createRelyingParty(settings: () => ProviderSettings, secret: Buffer) {
  const oidc = loadOpenIdClient();
  let discovered: Promise<import('openid-client').Configuration> | undefined;
  const configuration = () => {
    if (!discovered) {
      const s = settings();
      const execute = s.development ? [oidc.allowInsecureRequests] : [];
      discovered = oidc.discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, { execute }).catch((e: unknown) => {
        discovered = undefined; // a provider that was down is tried again next time
        throw e;
      });
    }
    return discovered;
  };

  return {
    /** Where to send the browser, and the cookie value that must come back with it. */
    async start(now: number): Promise<{ url: string; pending: string }> {
      const config = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, exp: now + PENDING_TTL_MS };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings().redirectUri,
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
        ...(settings().development ? { prompt: 'login' } : {}),
      });
      return { url: url.href, pending: seal(secret, pending) };
    },

    /** Checks the callback against the pending sign-in and exchanges the code; the verified identity, or SignInRefused. */
    async finish(callbackUrl: URL, pendingCookie: string | undefined, now: number): Promise<VerifiedIdentity> {
      const pending = unseal(secret, pendingCookie, now);
      const config = await configuration();
      let claims: Record<string, unknown> | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
        // Providers that follow the spec to the letter put scope claims in userinfo, not in the ID token.
        if (claims && typeof claims.email !== 'string') claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
      } catch (e) {
        throw new SignInRefused(e instanceof Error ? e.message : 'the provider refused the sign-in');
      }
      const email = claims?.email;
      if (!claims || typeof claims.sub !== 'string' || typeof email !== 'string' || email.length > 254) {
        throw new SignInRefused('the provider did not share an e-mail address (scope "email")');
      }
      return { issuer: String(claims.iss), subject: claims.sub, email };
    },
  };
}
