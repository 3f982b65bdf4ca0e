import { createKeyProvider } from '../src/chain/keys/createKeyProvider';
import type { Config } from '../src/config';
import type { KeyProvider } from '../src/ports/keyProvider';

/**
 * The configured key provider for a command that signs with the service's
 * own keys only (gas tank, faucet, settler): no store is opened, so asking it
 * for a wallet's key is a programming error.
 */
export function serviceKeyProvider(config: Config): KeyProvider {
  return createKeyProvider(config, {
    masterKey: config.keyVaultMasterKey ?? Buffer.alloc(32),
    walletKeys: () => {
      throw new Error('no wallet keys here');
    },
  });
}
