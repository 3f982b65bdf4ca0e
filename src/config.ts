import { z } from 'zod';
import { PLAN_NAMES } from './domain/plans';
import { parseEther, type Hex } from 'viem';
import { API_KEY_PATTERN } from './app/accounts/apiKeyFormat';
import { CHAIN_NAMES, TEST_CHAINS, type ChainName } from './domain/chains';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS } from './chain/sandbox/accounts';
import { SANDBOX_MARKET_MODES, type SandboxMarketMode } from './chain/sandbox/marketLayout';
import { parseSandboxAccountModels, type SandboxAccountModels } from './chain/sandbox/accountModels';
import { SANDBOX_TIMINGS, stuckAfterMsAt, testnetPace, type SandboxTiming } from './chain/sandbox/timing';

/** The sandbox's account model where SANDBOX_ACCOUNT_MODEL names none (one constant: src/chain/sandbox/accountModels.ts). */
export { DEFAULT_SANDBOX_ACCOUNT_MODEL } from './chain/sandbox/accountModels';
import { trustedProxyProblem } from './http/clientAddress';
import type { AllowedHost } from './http/allowedHosts';
import type { DashboardSignIn } from './dashboard/createDashboard';
import { SERVICE_ENVIRONMENTS, type ServiceEnvironment } from './domain/environment';

const hex32 = /^(0x)?[0-9a-fA-F]{64}$/;

/** Environment of docs/operations.md, validated once at start. */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    MONGODB_URI: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URI')
      .optional(),
    CHAIN_MODE: z.enum(['sandbox', 'rpc']).default('sandbox'),
    DEV_API_KEY: z.string().regex(API_KEY_PATTERN, 'must be svc_sk_ followed by 64 lowercase hex characters').optional(),
    DEV_PLAN: z.enum(PLAN_NAMES).default('free'),
    ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    KEY_VAULT_MASTER_KEY: z.string().regex(hex32, 'must be 32 bytes as 64 hex characters').optional(),
    KEY_VAULT_PREVIOUS_KEYS: z
      .string()
      .optional()
      .refine((v) => !v || v.split(',').every((k) => hex32.test(k.trim())), 'must be comma-separated 32-byte hex keys'),
    KEY_PROVIDER: z.enum(['local', 'pkcs11'], { error: 'must be local (the encrypted key vault) or pkcs11 (a PKCS#11 token)' }).default('local'),
    PKCS11_MODULE: z.string().min(1, 'must be the path of the PKCS#11 library').optional(),
    PKCS11_TOKEN_LABEL: z.string().min(1, 'must be the label of the token').max(32, 'must be at most 32 characters (a PKCS#11 token label)').optional(),
    PKCS11_PIN: z.string().min(1).optional(),
    PKCS11_PIN_FILE: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    SANDBOX_BLOCK_TIME_MS: z.coerce.number().int().min(0).default(0),
    SANDBOX_TIMING: z
      .enum(SANDBOX_TIMINGS, { error: "must be instant (one block per transaction) or testnets (the test networks' block times and attestation delays)" })
      .default('instant'),
    SANDBOX_SPEED: z.coerce
      .number({ error: 'must be a number' })
      .min(1, 'must be a factor of at least 1 (10 runs the test networks ten times faster)')
      .max(1_000_000, 'must be at most 1000000')
      .optional(),
    SANDBOX_MANIFEST: z.string().optional(),
    SANDBOX_MARKETS: z.enum(SANDBOX_MARKET_MODES, { error: `must be one of ${SANDBOX_MARKET_MODES.join(', ')}` }).default('all'),
    SANDBOX_ACCOUNT_MODEL: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        const parsed = parseSandboxAccountModels(v);
        if (typeof parsed === 'string')
          ctx.addIssue({ code: 'custom', message: `must be 7702, plain, or a list like ethereum-sepolia=7702,base-sepolia=plain: ${parsed}` });
      }),
    CHAIN_MANIFEST: z.string().min(1).optional(),
    GAS_TANK_KEY: z.string().regex(hex32, 'must be a 32-byte hex private key').optional(),
    FAUCET_KEY: z.string().regex(hex32, 'must be a 32-byte hex private key').optional(),
    ATTESTATION_API_URL: z
      .string()
      .regex(
        /^https?:\/\/[^/\s]+(\/[^\s]*)?$/,
        "must be the base URL of Circle's attestation service (Iris) or a compatible one, like https://iris-api-sandbox.circle.com",
      )
      .optional(),
    CORS_ORIGINS: z
      .string()
      .optional()
      .refine(
        (v) => !v || v.split(',').every((o) => /^https?:\/\/[^/\s*]+$/.test(o.trim())),
        'must be comma-separated origins like https://app.example.com (scheme and host, no path, no wildcard)',
      ),
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .superRefine((v, ctx) => {
        for (const entry of v.split(',').filter((e) => e.trim() !== '')) {
          const problem = trustedProxyProblem(entry);
          if (problem)
            ctx.addIssue({
              code: 'custom',
              message: `must be comma-separated IP addresses or CIDR ranges of the reverse proxies in front of the service: ${problem}`,
            });
        }
      }),
    SETTLER_KEY: z.string().regex(hex32, 'must be a 32-byte hex private key').optional(),
    PAYMENT_PAY_TO: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
      .optional(),
    TX_STUCK_AFTER_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
    INTENT_LEASE_MS: z.coerce.number().int().min(600).max(600_000).default(15_000),
    RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    TX_RETRY_MAX_MS: z.coerce.number().int().min(10).max(30_000).default(30_000),
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
    YIELD_SAMPLE_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    SERVICE_ENV: z.enum(SERVICE_ENVIRONMENTS).default('development'),
    PUBLIC_URL: z
      .string()
      .regex(/^https?:\/\/[^/\s]+$/, 'must be the origin people reach the service at, like https://api.example.com (no path)')
      .optional(),
    DASHBOARD: z.enum(['on', 'off']).default('on'),
    GRAPHQL_FAST_PATH: z.enum(['on', 'off']).default('on'),
    OIDC_ISSUER: z.url({ error: 'must be the issuer URL of an OpenID Connect provider' }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    SESSION_SECRET: z.string().regex(hex32, 'must be 32 bytes as 64 hex characters').optional(),
    DEV_SIGNIN: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    ALLOWED_HOSTS: z
      .string()
      .optional()
      .refine(
        (v) => !v || v.split(',').every((h) => parseAllowedHost(h.trim()) !== null),
        'must be comma-separated host names or addresses, each optionally with :port (e.g. wallets.internal,10.0.0.5:3000,[::1]), no scheme or path',
      ),
    GAS_BUDGET_PER_ACCOUNT: z
      .string()
      .regex(/^\d+(\.\d{1,18})?$/, 'must be an amount of ETH as a decimal, e.g. 0.5')
      .default('0.5'),
  })
  .superRefine((env, ctx) => {
    if (env.MONGODB_URI && !env.KEY_VAULT_MASTER_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['KEY_VAULT_MASTER_KEY'],
        message:
          'is required with MONGODB_URI: wallet keys stored in the database could not be decrypted after a restart without it (generate one: openssl rand -hex 32)',
      });
    }
    if (env.CHAIN_MODE === 'rpc' && !env.MONGODB_URI) {
      ctx.addIssue({ code: 'custom', path: ['MONGODB_URI'], message: 'is required with CHAIN_MODE=rpc (wallet keys must persist)' });
    }
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'is required with OIDC_ISSUER' });
    }
    if (env.OIDC_ISSUER && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'is required with OIDC_ISSUER (the provider redirects people back to PUBLIC_URL/dashboard/auth/callback)',
      });
    }
    if (env.MONGODB_URI && env.DASHBOARD === 'on' && !env.SESSION_SECRET && env.SERVICE_ENV !== 'development') {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message:
          'is required with MONGODB_URI outside development (sessions must survive a restart and be shared by instances; generate one: openssl rand -hex 32)',
      });
    }
    if (env.DEV_SIGNIN === 'true') {
      // Anyone who types an e-mail becomes that user: never where real accounts live.
      if (env.SERVICE_ENV === 'production' || env.NODE_ENV === 'production') {
        ctx.addIssue({
          code: 'custom',
          path: ['DEV_SIGNIN'],
          message: 'is refused in production: the development sign-in lets anyone sign in as any e-mail (configure OIDC_ISSUER instead)',
        });
      }
      if (env.CHAIN_MODE !== 'sandbox') ctx.addIssue({ code: 'custom', path: ['DEV_SIGNIN'], message: 'runs with CHAIN_MODE=sandbox only' });
      if (env.OIDC_ISSUER)
        ctx.addIssue({ code: 'custom', path: ['DEV_SIGNIN'], message: 'cannot be combined with OIDC_ISSUER (one sign-in provider at a time)' });
    }
    if (env.SANDBOX_TIMING === 'testnets' && env.SANDBOX_BLOCK_TIME_MS > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['SANDBOX_BLOCK_TIME_MS'],
        message: 'cannot be combined with SANDBOX_TIMING=testnets, which mines each chain at its own block time',
      });
    }
    if (env.SANDBOX_SPEED !== undefined && env.SANDBOX_TIMING !== 'testnets') {
      ctx.addIssue({ code: 'custom', path: ['SANDBOX_SPEED'], message: 'applies to SANDBOX_TIMING=testnets only (instant timing has no pace to speed up)' });
    }
    if (env.CHAIN_MODE === 'rpc') {
      // With pkcs11 the service keys are in the token (npm run keys:create-service), not in the environment.
      const needed =
        env.KEY_PROVIDER === 'local'
          ? (['KEY_VAULT_MASTER_KEY', 'CHAIN_MANIFEST', 'GAS_TANK_KEY', 'FAUCET_KEY'] as const)
          : (['KEY_VAULT_MASTER_KEY', 'CHAIN_MANIFEST'] as const);
      for (const name of needed) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with CHAIN_MODE=rpc' });
      }
    }
    if (env.KEY_PROVIDER === 'pkcs11') {
      for (const name of ['PKCS11_MODULE', 'PKCS11_TOKEN_LABEL'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with KEY_PROVIDER=pkcs11' });
      }
      if (!env.PKCS11_PIN === !env.PKCS11_PIN_FILE) {
        ctx.addIssue({ code: 'custom', path: ['PKCS11_PIN'], message: 'exactly one of PKCS11_PIN and PKCS11_PIN_FILE is required with KEY_PROVIDER=pkcs11' });
      }
      // A production that keeps its keys in a token takes none from the environment.
      if (env.NODE_ENV === 'production' || env.SERVICE_ENV === 'production') {
        for (const name of ['GAS_TANK_KEY', 'FAUCET_KEY', 'SETTLER_KEY'] as const) {
          if (env[name]) {
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message:
                'is refused in production with KEY_PROVIDER=pkcs11: a raw private key in the environment (the service keys live in the token; npm run keys:create-service)',
            });
          }
        }
      }
    }
  });

export type Env = z.output<typeof envSchema>;

/**
 * One entry of ALLOWED_HOSTS: a host name or address, lowercased, IPv6 in
 * brackets, with a port when one is given (null: the entry is malformed).
 */
export function parseAllowedHost(entry: string): { host: string; port?: string } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) return null;
  return { host: m[1]!.toLowerCase(), ...(m[2] !== undefined ? { port: m[2] } : {}) };
}

/** Which key provider holds the keys (docs/operations.md, "Keys"). */
export type KeyProviderConfig = { kind: 'local' } | { kind: 'pkcs11'; module: string; tokenLabel: string; pin?: string; pinFile?: string };

export interface Config {
  port: number;
  keyProvider: KeyProviderConfig;
  /**
   * Host header values the HTML pages (GraphiQL, /docs, the dashboard) are
   * served to, so a page of another site re-pointed at this server's address
   * (DNS rebinding) is refused (src/http/allowedHosts.ts).
   */
  allowedHosts: AllowedHost[];
  /**
   * The development account: `key` given (DEV_API_KEY: every environment,
   * never printed) or `generated` (development only, printed in the ready
   * line); `off` says why there is none.
   */
  devAccount: { key?: string; generated: boolean; plan: Env['DEV_PLAN'] } | { off: string };
  /** development (default), staging or production (docs/decisions.md, "staging"). */
  environment: ServiceEnvironment;
  /** The origin people reach the service at; by default the address it listens on. */
  publicUrl?: string;
  /** The web dashboard at /dashboard; absent when DASHBOARD=off. `signIn` absent: no provider configured (sign-in answers 503). */
  dashboard?: { signIn?: DashboardSignIn };
  /** Signs session cookies; a random one per start when absent (sessions then end with the process). */
  sessionSecret?: Buffer;
  host: string;
  mongodbUri?: string;
  chainMode: 'sandbox' | 'rpc';
  adminToken?: string;
  keyVaultMasterKey?: Buffer;
  /** Older master keys, for ciphertexts written before a rotation. */
  keyVaultPreviousKeys: Buffer[];
  /** Gas the service pays for one account's intents in any rolling 24 h. */
  gasBudgetPerAccountWei: bigint;
  logLevel: Env['LOG_LEVEL'];
  production: boolean;
  sandboxBlockTimeMs: number;
  /** SANDBOX_TIMING and SANDBOX_SPEED: `testnets` mines each devnet at its network's block time and delays attestations as Circle's service does, `speed` times faster. */
  sandboxTiming: { timing: SandboxTiming; speed: number };
  sandboxManifestPath?: string;
  /** Sandbox lending markets: `all` (the real layout plus sandbox-only USDC markets) or `testnets` (exactly the real layout). */
  sandboxMarkets: SandboxMarketMode;
  /** Sandbox only: each chain's account model (SANDBOX_ACCOUNT_MODEL), set on the sandbox's manifest and on a loaded SANDBOX_MANIFEST. */
  sandboxAccountModels: SandboxAccountModels;
  chainManifestPath?: string;
  rpcUrls: Partial<Record<ChainName, string>>;
  serviceKeys?: { gasTank: Hex; faucet: Hex };
  /** rpc mode: base URL of the CCTP attestation service (Circle's testnet service unless set). */
  attestationApiUrl?: string;
  bodyLimitBytes: number;
  /** GraphQL-over-HTTP requests answered before yoga (GRAPHQL_FAST_PATH); off: yoga answers all. */
  graphqlFastPath: boolean;
  /** Origins browser apps may call the API from (CORS); empty: no CORS. */
  corsOrigins: string[];
  /** Reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For is believed; empty: the connecting peer is the client. */
  trustedProxies: string[];
  /** x402 paid reads: who sends settlements and who is paid; absent in rpc mode unless both are configured. */
  payments?: { settlerKey?: Hex; payTo: `0x${string}` };
  /** A sent transaction not mined this long after its broadcast is rebroadcast; two periods after signing, replaced with a higher fee. */
  txStuckAfterMs: number;
  /** How long an intent waits for another instance after its owner stops abruptly (docs/operations.md, "Several instances"). */
  intentLeaseMs: number;
  /** One JSON-RPC request to a chain waits this long at most. */
  rpcTimeoutMs: number;
  /** Cap on one wait between tries while a transaction is in flight (or a burn awaits its mint). */
  txRetryMaxMs: number;
  /**
   * Webhook deliveries: the first retry delay (the schedule 5 s, 30 s, 2 min, … and its 24 h window scale with it),
   * and whether endpoints may be on loopback (a sandbox outside production; private and link-local addresses never).
   */
  webhooks: { retryBaseMs: number; allowLoopback: boolean };
  /** How often every market's APY is sampled into the yield history (one sample per market and minute is kept). */
  yieldSampleIntervalMs: number;
}

const hexBytes = (k: string): Buffer => Buffer.from(k.replace(/^0x/, ''), 'hex');
const hexKey = (k: string): Hex => (k.startsWith('0x') ? k : `0x${k}`) as Hex;

/** RPC_URL_<CHAIN> (e.g. RPC_URL_BASE_SEPOLIA) for every chain of the registry. */
function rpcUrlsFrom(env: NodeJS.ProcessEnv): Partial<Record<ChainName, string>> {
  const out: Partial<Record<ChainName, string>> = {};
  for (const c of CHAIN_NAMES) {
    const v = env[`RPC_URL_${c.toUpperCase().replace(/-/g, '_')}`];
    if (v) out[c] = v;
  }
  return out;
}

/** Paid reads: configured keys, else (sandbox) the sandbox settler and treasury, else (rpc) off. */
function paymentsConfig(e: Env): Config['payments'] {
  if (e.SETTLER_KEY && e.PAYMENT_PAY_TO) return { settlerKey: hexKey(e.SETTLER_KEY), payTo: e.PAYMENT_PAY_TO as `0x${string}` };
  // pkcs11: the settler's key is in the token (label service:settler); only who is paid is configured.
  if (e.KEY_PROVIDER === 'pkcs11' && e.PAYMENT_PAY_TO) return { payTo: e.PAYMENT_PAY_TO as `0x${string}` };
  if (e.CHAIN_MODE === 'sandbox') return { settlerKey: e.KEY_PROVIDER === 'local' ? SANDBOX_KEYS.settler : undefined, payTo: SANDBOX_ADDRESSES.treasury };
  return undefined;
}

function keyProviderConfig(e: Env): KeyProviderConfig {
  if (e.KEY_PROVIDER === 'local') return { kind: 'local' };
  return { kind: 'pkcs11', module: e.PKCS11_MODULE!, tokenLabel: e.PKCS11_TOKEN_LABEL!, pin: e.PKCS11_PIN, pinFile: e.PKCS11_PIN_FILE };
}

/** Development proper: SERVICE_ENV=development (the default) and not NODE_ENV=production. What only a developer's machine gets is decided by this. */
const isDevelopment = (e: Env): boolean => e.SERVICE_ENV === 'development' && e.NODE_ENV !== 'production';

/**
 * A configured provider wins; otherwise the embedded development provider
 * (anyone signs in as any e-mail), in a sandbox in development, or where
 * DEV_SIGNIN=true turns it on (a staging sandbox; refused in production).
 * DEV_SIGNIN=false turns it off in development too.
 */
function dashboardSignIn(e: Env): DashboardSignIn | undefined {
  if (e.OIDC_ISSUER && e.OIDC_CLIENT_ID) return { kind: 'hosted', issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET };
  if (e.CHAIN_MODE !== 'sandbox') return undefined;
  if (e.DEV_SIGNIN === 'true' || (e.DEV_SIGNIN === undefined && isDevelopment(e))) return { kind: 'embedded' };
  return undefined;
}

/**
 * The development account. DEV_API_KEY, when given, is registered in every
 * environment (an operator's deliberate bootstrap key) and never printed;
 * without it a key is generated, and printed, in development only.
 */
function devAccount(e: Env): Config['devAccount'] {
  if (e.DEV_API_KEY) return { key: e.DEV_API_KEY, generated: false, plan: e.DEV_PLAN };
  if (isDevelopment(e)) return { generated: true, plan: e.DEV_PLAN };
  return {
    off: `no development account: DEV_API_KEY is not set and a key is generated in development only (SERVICE_ENV=${e.SERVICE_ENV}, NODE_ENV=${e.NODE_ENV})`,
  };
}

/** ALLOWED_HOSTS, else the loopback names (any port) and PUBLIC_URL's host. */
function allowedHosts(e: Env): AllowedHost[] {
  if (e.ALLOWED_HOSTS) return e.ALLOWED_HOSTS.split(',').map((h) => parseAllowedHost(h.trim())!);
  const loopback: AllowedHost[] = [{ host: 'localhost' }, { host: '127.0.0.1' }, { host: '[::1]' }];
  if (!e.PUBLIC_URL) return loopback;
  const u = new URL(e.PUBLIC_URL);
  return [...loopback, { host: u.hostname.toLowerCase(), ...(u.port ? { port: u.port } : {}) }];
}

/**
 * Devnets mine at once, so a transaction waiting seconds there is stuck; a public chain gets a minute. At the test
 * networks' pace, a healthy transaction may wait a whole block (12 s on Sepolia): 2.5 blocks of the slowest chain.
 */
function defaultStuckAfterMs(e: Env): number {
  if (e.CHAIN_MODE !== 'sandbox') return 60_000;
  if (e.SANDBOX_TIMING !== 'testnets') return 5_000;
  return stuckAfterMsAt(testnetPace(TEST_CHAINS, e.SANDBOX_SPEED ?? 1), 5_000);
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment; a bad variable is named in the thrown ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const r = envSchema.safeParse(env);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = r.data;
  return {
    port: e.PORT,
    keyProvider: keyProviderConfig(e),
    allowedHosts: allowedHosts(e),
    devAccount: devAccount(e),
    environment: e.SERVICE_ENV,
    publicUrl: e.PUBLIC_URL,
    dashboard: e.DASHBOARD === 'off' ? undefined : { signIn: dashboardSignIn(e) },
    sessionSecret: e.SESSION_SECRET ? hexBytes(e.SESSION_SECRET) : undefined,
    host: e.HOST,
    mongodbUri: e.MONGODB_URI,
    chainMode: e.CHAIN_MODE,
    adminToken: e.ADMIN_TOKEN,
    keyVaultMasterKey: e.KEY_VAULT_MASTER_KEY ? hexBytes(e.KEY_VAULT_MASTER_KEY) : undefined,
    keyVaultPreviousKeys: e.KEY_VAULT_PREVIOUS_KEYS ? e.KEY_VAULT_PREVIOUS_KEYS.split(',').map((k) => hexBytes(k.trim())) : [],
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    sandboxBlockTimeMs: e.SANDBOX_BLOCK_TIME_MS,
    sandboxTiming: { timing: e.SANDBOX_TIMING, speed: e.SANDBOX_SPEED ?? 1 },
    sandboxManifestPath: e.SANDBOX_MANIFEST || undefined,
    sandboxMarkets: e.SANDBOX_MARKETS,
    sandboxAccountModels: parseSandboxAccountModels(e.SANDBOX_ACCOUNT_MODEL) as SandboxAccountModels,
    chainManifestPath: e.CHAIN_MANIFEST,
    rpcUrls: rpcUrlsFrom(env),
    serviceKeys: e.GAS_TANK_KEY && e.FAUCET_KEY ? { gasTank: hexKey(e.GAS_TANK_KEY), faucet: hexKey(e.FAUCET_KEY) } : undefined,
    attestationApiUrl: e.ATTESTATION_API_URL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    graphqlFastPath: e.GRAPHQL_FAST_PATH === 'on',
    txStuckAfterMs: e.TX_STUCK_AFTER_MS ?? defaultStuckAfterMs(e),
    intentLeaseMs: e.INTENT_LEASE_MS,
    txRetryMaxMs: e.TX_RETRY_MAX_MS,
    webhooks: { retryBaseMs: e.WEBHOOK_RETRY_BASE_MS, allowLoopback: e.CHAIN_MODE === 'sandbox' && isDevelopment(e) },
    yieldSampleIntervalMs: e.YIELD_SAMPLE_INTERVAL_MS,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    payments: paymentsConfig(e),
    corsOrigins: e.CORS_ORIGINS ? e.CORS_ORIGINS.split(',').map((o) => o.trim()) : [],
    trustedProxies: e.TRUSTED_PROXIES.split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    gasBudgetPerAccountWei: parseEther(e.GAS_BUDGET_PER_ACCOUNT),
  };
}
