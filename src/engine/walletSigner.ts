import type { LocalAccount } from 'viem/accounts';
import type { KeyVault } from '../ports/keyVault';

/**
 * One wallet's signer while its wallet actor is awake. The vault decrypts the
 * key and derives the account (a secp256k1 multiplication) on every
 * `signer()` call, which was most of the engine's CPU when asked per intent;
 * here it is asked at the wallet's first signature and the account is kept
 * until `drop()`, which the engine calls when the wallet actor stops (idle
 * for `walletIdleMs`, or the engine stopping). A failed call is not kept, so
 * the next signature asks the vault again. Only `walletId`'s signer is held:
 * any other wallet is asked of the vault directly.
 */
export interface WalletSigner extends Pick<KeyVault, 'signer'> {
  /** Forgets the account (the next `signer()` asks the vault again). */
  drop(): void;
  /** Whether an account (or a vault call for one) is held. */
  held(): boolean;
}

export function walletSigner(vault: Pick<KeyVault, 'signer'>, walletId: string): WalletSigner {
  let held: Promise<LocalAccount> | undefined;
  return {
    signer(id) {
      if (id !== walletId) return vault.signer(id);
      if (held === undefined) {
        const account = vault.signer(walletId);
        held = account;
        account.catch(() => {
          if (held === account) held = undefined;
        });
      }
      return held;
    },
    drop() {
      held = undefined;
    },
    held: () => held !== undefined,
  };
}
