import { parseSignature, type Hex, type Signature } from 'viem';
import { privateKeyToAccount, type LocalAccount } from 'viem/accounts';
import { ServiceError } from '../../domain/errors/base';
import type { KeyProvider, KeyProviderObserver, ServiceKeyLabel } from '../../ports/keyProvider';
import type { WalletKeyRepo } from '../../ports/store';
import { createKeyVault } from '../keyVault';
import { digestAccount } from './digestAccount';

/** The environment variable that holds each service key under the local provider. */
export const SERVICE_KEY_VARIABLES: Readonly<Record<ServiceKeyLabel, string>> = { 'gas-tank': 'GAS_TANK_KEY', faucet: 'FAUCET_KEY', settler: 'SETTLER_KEY' };

export interface LocalProviderOptions {
  masterKey: Buffer;
  previousKeys?: Buffer[];
  /** The store's walletKeys (a getter: the store may start after the provider). */
  walletKeys: () => WalletKeyRepo;
  /** The service keys, from the environment (or the sandbox's well-known ones). */
  serviceKeys: Partial<Record<ServiceKeyLabel, Hex>>;
  observer?: KeyProviderObserver;
}

/** A service account over a key from the environment (the local provider's). */
export const localServiceAccount = (key: Hex): LocalAccount => privateKeyToAccount(key);

/**
 * KEY_PROVIDER=local: wallet keys encrypted under the master key in the
 * store (src/chain/keyVault.ts), service keys from the environment. The only
 * place a viem account is built around a private key.
 */
export function createLocalProvider(o: LocalProviderOptions): KeyProvider {
  // The vault reads its repository at each call: built lazily, the store may not exist yet.
  const vault = createKeyVault({
    masterKey: o.masterKey,
    previousKeys: o.previousKeys,
    keys: {
      insert: (r) => o.walletKeys().insert(r),
      get: (id) => o.walletKeys().get(id),
      delete: (id) => o.walletKeys().delete(id),
    },
  });
  const service = new Map<ServiceKeyLabel, LocalAccount>();
  /** Signs with the decrypted key, counted as the token's signatures are. */
  const counted = async (key: LocalAccount, digest: Hex): Promise<Signature> => {
    const started = performance.now();
    const signature = parseSignature(await key.sign!({ hash: digest }));
    o.observer?.onSign?.('local', (performance.now() - started) / 1000, true);
    return signature;
  };
  return {
    kind: 'local',
    createKey: (walletId) => vault.createKey(walletId),
    discardKey: (walletId) => vault.discardKey(walletId),
    async signer(walletId) {
      const key = await vault.signer(walletId);
      return digestAccount(key.address, (digest) => counted(key, digest));
    },
    signDigest: async (walletId, digest) => counted(await vault.signer(walletId), digest),
    async serviceSigner(label) {
      let account = service.get(label);
      if (!account) {
        const key = o.serviceKeys[label];
        if (!key) throw new ServiceError('INTERNAL_ERROR', `${SERVICE_KEY_VARIABLES[label]} is not configured`, { details: { label } });
        account = localServiceAccount(key);
        service.set(label, account);
      }
      return account;
    },
    async check() {},
    async close() {},
  };
}
