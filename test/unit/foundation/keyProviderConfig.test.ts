import { ConfigError, loadConfig } from '../../../src/config';

/** KEY_PROVIDER and the PKCS11_* variables (docs/configuration.md). */
const pkcs11 = { KEY_PROVIDER: 'pkcs11', PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so', PKCS11_TOKEN_LABEL: 'wallets', PKCS11_PIN: '123456' };
const KEY = 'ab'.repeat(32);

const problem = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('accepted');
};

test('behavior: local is the default; pkcs11 reads the module, token label and PIN', () => {
  expect(loadConfig({}).keyProvider).toEqual({ kind: 'local' });
  expect(loadConfig(pkcs11).keyProvider).toEqual({ kind: 'pkcs11', module: pkcs11.PKCS11_MODULE, tokenLabel: 'wallets', pin: '123456', pinFile: undefined });
  const { PKCS11_PIN: _pin, ...noPin } = pkcs11;
  expect(loadConfig({ ...noPin, PKCS11_PIN_FILE: '/run/secrets/pin' }).keyProvider).toMatchObject({ pinFile: '/run/secrets/pin' });
});

test('error: a bad KEY_PROVIDER, or pkcs11 without its variables, is named', () => {
  expect(problem({ KEY_PROVIDER: 'kms' })).toMatch(/^\s*KEY_PROVIDER: must be local .* or pkcs11/m);
  expect(problem({ KEY_PROVIDER: 'pkcs11' })).toMatch(
    /PKCS11_MODULE: is required with KEY_PROVIDER=pkcs11[\s\S]*PKCS11_TOKEN_LABEL: is required[\s\S]*PKCS11_PIN: exactly one of/,
  );
  expect(problem({ ...pkcs11, PKCS11_PIN_FILE: '/x' })).toMatch(/PKCS11_PIN: exactly one of PKCS11_PIN and PKCS11_PIN_FILE/);
});

test('error: in production with pkcs11 a raw private key in the environment is refused, naming it', () => {
  const msg = problem({ ...pkcs11, NODE_ENV: 'production', GAS_TANK_KEY: KEY, SETTLER_KEY: KEY });
  expect(msg).toMatch(/GAS_TANK_KEY: is refused in production with KEY_PROVIDER=pkcs11/);
  expect(msg).toMatch(/SETTLER_KEY: is refused in production/);
  // the local provider still takes them
  expect(() => loadConfig({ NODE_ENV: 'production', GAS_TANK_KEY: KEY })).not.toThrow();
});

test('behavior: rpc mode with pkcs11 needs no service keys in the environment', () => {
  const rpc = { CHAIN_MODE: 'rpc', MONGODB_URI: 'mongodb://db/x', KEY_VAULT_MASTER_KEY: KEY, CHAIN_MANIFEST: 'deploy/testnets.json' };
  expect(problem(rpc)).toMatch(/GAS_TANK_KEY: is required with CHAIN_MODE=rpc/);
  expect(loadConfig({ ...rpc, ...pkcs11 }).serviceKeys).toBeUndefined();
});
