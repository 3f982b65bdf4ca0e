import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import type { KeyProvider, KeyProviderObserver, ServiceKeyLabel } from '../../ports/keyProvider';
import type { WalletKeyRepo } from '../../ports/store';
import { SANDBOX_KEYS } from '../sandbox/accounts';
import type { ServiceAccounts } from '../viem/serviceAccounts';
import { createLocalProvider, SERVICE_KEY_VARIABLES } from './localProvider';
import { createPkcs11Provider } from './pkcs11/pkcs11Provider';
import { openPkcs11Token } from './pkcs11/pkcs11Token';
import { KeyProviderStartError } from './startError';

/** What the key provider reads of the configuration (src/config.ts). */
export interface KeyProviderSettings {
  keyProvider: { kind: 'local' } | { kind: 'pkcs11'; module: string; tokenLabel: string; pin?: string; pinFile?: string };
  chainMode: 'sandbox' | 'rpc';
  keyVaultPreviousKeys: Buffer[];
  serviceKeys?: { gasTank: Hex; faucet: Hex };
  payments?: { settlerKey?: Hex };
}

/** The PIN from PKCS11_PIN, or read from PKCS11_PIN_FILE (its first line). */
function pinOf(k: Extract<KeyProviderSettings['keyProvider'], { kind: 'pkcs11' }>): string {
  if (k.pin !== undefined) return k.pin;
  try {
    return readFileSync(k.pinFile!, 'utf8').split(/\r?\n/)[0]!;
  } catch (e) {
    throw new KeyProviderStartError('PKCS11_PIN_FILE', `could not be read (${(e as Error).message})`, { cause: e });
  }
}

/**
 * The configured key provider. `local`: the vault under `masterKey` and the
 * service keys of the environment (the sandbox's well-known ones on the
 * sandbox chains). `pkcs11`: the token opened and logged in now, so a wrong
 * PIN, a missing token or library stops the start (KeyProviderStartError).
 */
export function createKeyProvider(
  cfg: KeyProviderSettings,
  deps: { masterKey: Buffer; walletKeys: () => WalletKeyRepo; observer?: KeyProviderObserver; sessions?: number },
): KeyProvider {
  const k = cfg.keyProvider;
  if (k.kind === 'pkcs11') {
    const token = openPkcs11Token({ module: k.module, tokenLabel: k.tokenLabel, pin: pinOf(k), sessions: deps.sessions });
    return createPkcs11Provider({ token, walletKeys: deps.walletKeys, observer: deps.observer });
  }
  const sandbox = cfg.chainMode === 'sandbox';
  const serviceKeys: Partial<Record<ServiceKeyLabel, Hex>> = {
    'gas-tank': cfg.serviceKeys?.gasTank ?? (sandbox ? SANDBOX_KEYS.gasTank : undefined),
    faucet: cfg.serviceKeys?.faucet ?? (sandbox ? SANDBOX_KEYS.faucet : undefined),
    settler: cfg.payments?.settlerKey,
  };
  return createLocalProvider({
    masterKey: deps.masterKey,
    previousKeys: cfg.keyVaultPreviousKeys,
    walletKeys: deps.walletKeys,
    serviceKeys,
    observer: deps.observer,
  });
}

/**
 * A service key's account. On the sandbox chains a pkcs11 token gets the
 * keys it lacks (they are funded by the sandbox); elsewhere a missing key
 * stops the start, naming the command that creates it.
 */
export async function serviceSignerAtStart(provider: KeyProvider, label: ServiceKeyLabel, sandbox: boolean): Promise<LocalAccount> {
  try {
    return await provider.serviceSigner(label, { create: sandbox && provider.kind === 'pkcs11' });
  } catch (e) {
    if (provider.kind === 'local')
      throw new KeyProviderStartError(SERVICE_KEY_VARIABLES[label], 'is required (a service key of the local key provider)', { cause: e });
    throw new KeyProviderStartError(
      'PKCS11_TOKEN_LABEL',
      `the token has no service key "service:${label}" (create it: npm run keys:create-service -- ${label}; then fund its address)`,
      { cause: e },
    );
  }
}

/** The gas tank's and faucet's accounts, as the chain port signs with them. */
export async function serviceAccountsAtStart(provider: KeyProvider, sandbox: boolean): Promise<ServiceAccounts> {
  const [gasTank, faucet] = await Promise.all([serviceSignerAtStart(provider, 'gas-tank', sandbox), serviceSignerAtStart(provider, 'faucet', sandbox)]);
  return { gasTank, faucet };
}
