import type { Address } from 'viem';
import type { LocalAccount } from 'viem/accounts';

/**
 * The key vault: generates secp256k1 keys, keeps them encrypted at rest
 * (AES-256-GCM under the master key) and hands out addresses and signers only.
 * A private key never leaves the vault (src/chain/keyVault.ts): not in a
 * return value, log or error.
 */
export interface KeyVault {
  /** Creates and stores a key for `walletId`; returns its EVM address. */
  createKey(walletId: string): Promise<Address>;
  /** A viem account that signs with the wallet's key (the key stays inside the closure). */
  signer(walletId: string): Promise<LocalAccount>;
  /** Deletes the key made for a wallet that was never stored (no funds can have reached its address). */
  discardKey(walletId: string): Promise<void>;
}
