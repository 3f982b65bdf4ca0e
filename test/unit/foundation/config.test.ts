import { spawnSync } from 'node:child_process';
import { ConfigError, loadConfig } from '../../../src/config';
import { assertKeysOutliveRestart } from '../../../src/service';

/** The ConfigError `env` produces, or null when it is accepted. */
function tryConfig(env: NodeJS.ProcessEnv): ConfigError | null {
  try {
    loadConfig(env);
    return null;
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
}

/** The message of the ConfigError that `env` produces (fails the test when none is thrown). */
function configError(env: NodeJS.ProcessEnv): string {
  const e = tryConfig(env);
  expect(e).toBeInstanceOf(ConfigError);
  return e!.message;
}

const GOOD_KEY = `svc_sk_${'ab'.repeat(32)}`;

describe('config', () => {
  test('behavior: defaults of docs/operations.md (127.0.0.1:3000, sandbox, free, in-memory, 1 MiB bodies)', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', chainMode: 'sandbox', logLevel: 'info', production: false, bodyLimitBytes: 1024 * 1024 });
    expect(c.mongodbUri).toBeUndefined();
    expect(c.adminToken).toBeUndefined();
    expect(c.devAccount).toEqual({ generated: true, plan: 'free' });
    expect(c.keyVaultMasterKey).toBeUndefined();
  });

  test('behavior: values are parsed (PORT 0, DEV_API_KEY, ADMIN_TOKEN, a 0x master key as 32 bytes, production)', () => {
    const c = loadConfig({
      PORT: '0',
      DEV_API_KEY: GOOD_KEY,
      ADMIN_TOKEN: 'a'.repeat(16),
      KEY_VAULT_MASTER_KEY: `0x${'11'.repeat(32)}`,
      NODE_ENV: 'production',
      DEV_PLAN: 'pro',
    });
    expect(c.port).toBe(0);
    expect(c.devAccount).toEqual({ key: GOOD_KEY, generated: false, plan: 'pro' });
    expect(c.adminToken).toBe('a'.repeat(16));
    expect(c.keyVaultMasterKey?.equals(Buffer.alloc(32, 0x11))).toBe(true);
    expect(c.production).toBe(true);
  });

  test('security: a development key is generated in development only; DEV_API_KEY is honoured in every environment', () => {
    expect(loadConfig({}).devAccount).toEqual({ generated: true, plan: 'free' });
    for (const env of [
      { SERVICE_ENV: 'staging' },
      { SERVICE_ENV: 'production' },
      { NODE_ENV: 'production' },
      { SERVICE_ENV: 'development', NODE_ENV: 'production' },
    ]) {
      expect({ env, devAccount: loadConfig(env).devAccount }).toEqual({
        env,
        devAccount: { off: expect.stringMatching(/^no development account: DEV_API_KEY is not set/) },
      });
      expect({ env, devAccount: loadConfig({ ...env, DEV_API_KEY: GOOD_KEY }).devAccount }).toEqual({
        env,
        devAccount: { key: GOOD_KEY, generated: false, plan: 'free' },
      });
    }
  });

  test('security: the development sign-in is on in a development sandbox only, unless DEV_SIGNIN says otherwise (never in production)', () => {
    expect(loadConfig({}).dashboard?.signIn).toEqual({ kind: 'embedded' });
    expect(loadConfig({ DEV_SIGNIN: 'false' }).dashboard?.signIn).toBeUndefined();
    expect(loadConfig({ SERVICE_ENV: 'staging' }).dashboard?.signIn).toBeUndefined();
    expect(loadConfig({ SERVICE_ENV: 'staging', DEV_SIGNIN: 'true' }).dashboard?.signIn).toEqual({ kind: 'embedded' });
    expect(configError({ SERVICE_ENV: 'production', DEV_SIGNIN: 'true' })).toMatch(/^\s*DEV_SIGNIN: is refused in production/m);
    expect(configError({ NODE_ENV: 'production', DEV_SIGNIN: 'true' })).toMatch(/^\s*DEV_SIGNIN: is refused in production/m);
    expect(configError({ DEV_SIGNIN: 'yes' })).toMatch(/^\s*DEV_SIGNIN: must be true or false/m);
    expect(configError({ DEV_SIGNIN: 'true', OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'c', PUBLIC_URL: 'https://api.example.com' })).toMatch(
      /^\s*DEV_SIGNIN: cannot be combined with OIDC_ISSUER/m,
    );
  });

  test("behavior: ALLOWED_HOSTS lists the hosts pages are served to; by default loopback names on any port and PUBLIC_URL's host", () => {
    const loopback = [{ host: 'localhost' }, { host: '127.0.0.1' }, { host: '[::1]' }];
    expect(loadConfig({}).allowedHosts).toEqual(loopback);
    expect(loadConfig({ PUBLIC_URL: 'https://Wallets.Example.com' }).allowedHosts).toEqual([...loopback, { host: 'wallets.example.com' }]);
    expect(loadConfig({ PUBLIC_URL: 'http://wallets.internal:8080' }).allowedHosts).toEqual([...loopback, { host: 'wallets.internal', port: '8080' }]);
    expect(loadConfig({ ALLOWED_HOSTS: 'wallets.internal, 10.0.0.5:3000,[::1]' }).allowedHosts).toEqual([
      { host: 'wallets.internal' },
      { host: '10.0.0.5', port: '3000' },
      { host: '[::1]' },
    ]);
    for (const bad of ['https://wallets.internal', 'wallets.internal/path', '*.example.com', 'host:99999', '']) {
      expect({ bad, message: tryConfig({ ALLOWED_HOSTS: bad })?.message ?? null }).toEqual({
        bad,
        message: bad === '' ? null : expect.stringMatching(/^\s*ALLOWED_HOSTS: must be comma-separated host names/m),
      });
    }
  });

  test.each([['abc'], ['70000'], ['-1'], ['3.5']])('error: PORT=%s is named', (port) => {
    expect(configError({ PORT: port })).toMatch(/^\s*PORT: /m);
  });

  test('error: MONGODB_URI without KEY_VAULT_MASTER_KEY is refused, naming the variable (keys stored by one run would be unreadable by the next)', () => {
    const msg = tryConfig({ MONGODB_URI: 'mongodb://127.0.0.1:27017/x' })?.message ?? '';
    expect(msg).toMatch(/^\s*KEY_VAULT_MASTER_KEY: is required with MONGODB_URI/m);
    expect(tryConfig({ MONGODB_URI: 'mongodb://127.0.0.1:27017/x', KEY_VAULT_MASTER_KEY: '11'.repeat(32) })).toBeNull();
    expect(tryConfig({ KEY_VAULT_PREVIOUS_KEYS: 'beef' })?.message ?? '').toMatch(/KEY_VAULT_PREVIOUS_KEYS/);
  });

  test('error: CHAIN_MODE=rpc without MONGODB_URI is refused (wallet keys would be lost)', () => {
    const msg = configError({ CHAIN_MODE: 'rpc', KEY_VAULT_MASTER_KEY: '22'.repeat(32) });
    expect(msg).toMatch(/^\s*MONGODB_URI: .*CHAIN_MODE=rpc/m);
    expect(tryConfig({ CHAIN_MODE: 'rpc', MONGODB_URI: 'mongodb://127.0.0.1:27017/x' })?.message ?? '').not.toMatch(/^\s*MONGODB_URI:/m);
  });

  test('behavior: rpc mode needs no attester key (attestations come from the attestation service); ATTESTATION_API_URL is validated, absent by default', () => {
    const rpc = {
      CHAIN_MODE: 'rpc',
      MONGODB_URI: 'mongodb://127.0.0.1:27017/x',
      KEY_VAULT_MASTER_KEY: '22'.repeat(32),
      CHAIN_MANIFEST: '/etc/manifest.json',
      GAS_TANK_KEY: '0x' + '33'.repeat(32),
      FAUCET_KEY: '0x' + '44'.repeat(32),
    };
    const cfg = loadConfig(rpc);
    expect(cfg.serviceKeys).toEqual({ gasTank: '0x' + '33'.repeat(32), faucet: '0x' + '44'.repeat(32) });
    expect(cfg.attestationApiUrl).toBeUndefined();
    expect(loadConfig({ ...rpc, ATTESTATION_API_URL: 'https://iris-api-sandbox.circle.com' }).attestationApiUrl).toBe('https://iris-api-sandbox.circle.com');
    expect(configError({ ...rpc, ATTESTATION_API_URL: 'iris.example' })).toMatch(/^\s*ATTESTATION_API_URL: /m);
  });

  test('error: a bad DEV_API_KEY is named without echoing its value', () => {
    for (const bad of ['svc_sk_123', `svc_sk_${'AB'.repeat(32)}`, `sk_${'ab'.repeat(32)}`]) {
      const msg = configError({ DEV_API_KEY: bad });
      expect(msg).toMatch(/^\s*DEV_API_KEY: /m);
      expect(msg).not.toContain(bad);
    }
  });

  test('error: every bad variable is named at once', () => {
    const msg = configError({ PORT: 'x', DEV_PLAN: 'gold', LOG_LEVEL: 'loud', ADMIN_TOKEN: 'short', KEY_VAULT_MASTER_KEY: 'beef', MONGODB_URI: 'http://db' });
    for (const name of ['PORT', 'DEV_PLAN', 'LOG_LEVEL', 'ADMIN_TOKEN', 'KEY_VAULT_MASTER_KEY', 'MONGODB_URI']) {
      expect(msg).toMatch(new RegExp(`^\\s*${name}: `, 'm'));
    }
    expect(msg).not.toMatch(/^\s*HOST: /m);
  });
});

describe('start with a persistent store and no master key', () => {
  test('error: the process exits with status 2 and names KEY_VAULT_MASTER_KEY, before connecting to anything', () => {
    const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      env: { PATH: process.env.PATH, MONGODB_URI: 'mongodb://127.0.0.1:1/never', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/KEY_VAULT_MASTER_KEY: is required with MONGODB_URI/);
  }, 60_000);
});

describe('start on attached devnets with the memory store and no master key', () => {
  test('error: the process exits with status 2 naming KEY_VAULT_MASTER_KEY and SANDBOX_MANIFEST, before attaching to anything', () => {
    // the manifest does not exist: the refusal comes before the chains are read
    const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      env: { PATH: process.env.PATH, SANDBOX_MANIFEST: '/nonexistent/manifest.json', LOG_LEVEL: 'silent', PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/KEY_VAULT_MASTER_KEY: is required with SANDBOX_MANIFEST and the memory store/);
  }, 60_000);

  test('behavior: a configured master key, or a persistent store, lets it start', () => {
    const manifest = { sandboxManifestPath: '/x/manifest.json' };
    expect(() => assertKeysOutliveRestart({ ...manifest, keyVaultMasterKey: Buffer.alloc(32, 1) })).not.toThrow();
    expect(() => assertKeysOutliveRestart({ ...manifest, mongodbUri: 'mongodb://h/db', keyVaultMasterKey: Buffer.alloc(32, 1) })).not.toThrow();
    expect(() => assertKeysOutliveRestart({})).not.toThrow();
    expect(() => assertKeysOutliveRestart(manifest)).toThrow(ConfigError);
  });
});
