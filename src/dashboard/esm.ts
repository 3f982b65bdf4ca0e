/**
 * openid-client and oidc-provider are published as ES modules only. The
 * service is CommonJS, and Node ≥ 20.19 loads ES modules through require()
 * (without top-level await, which both are). They are loaded on first use,
 * so a service with the dashboard off never loads them.
 */
export function loadOpenIdClient(): typeof import('openid-client') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('openid-client') as typeof import('openid-client');
}

export function loadOidcProvider(): typeof import('oidc-provider') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('oidc-provider') as typeof import('oidc-provider');
}
