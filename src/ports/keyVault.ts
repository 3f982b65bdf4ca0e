import type { KeyProvider } from './keyProvider';

/**
 * The wallet-key part of the key provider (src/ports/keyProvider.ts) that
 * wallet creation and the engine use: create, sign, discard. Whichever
 * provider runs, no private key leaves it.
 */
export type KeyVault = Pick<KeyProvider, 'createKey' | 'signer' | 'discardKey'>;
