import type { Address, Hex, Signature } from 'viem';
import type { LocalAccount } from 'viem/accounts';

/** The service's own keys, held by the provider under these labels. */
export const SERVICE_KEY_LABELS = ['gas-tank', 'faucet', 'settler'] as const;
export type ServiceKeyLabel = (typeof SERVICE_KEY_LABELS)[number];

/** What the provider reports to metrics: one event per signature (or key generation) made. */
export interface KeyProviderObserver {
  onSign?(provider: KeyProvider['kind'], seconds: number, ok: boolean): void;
}

/**
 * The key provider: every key the service signs with (wallet keys, gas tank,
 * faucet, x402 settler) sits behind it. It creates keys, hands out addresses,
 * signatures over 32-byte digests, and viem accounts built on those
 * signatures; never key material. `local` keeps keys encrypted in the store
 * (src/chain/keys/localProvider.ts); `pkcs11` generates and uses them inside
 * a PKCS#11 token (src/chain/keys/pkcs11/).
 */
export interface KeyProvider {
  readonly kind: 'local' | 'pkcs11';
  /** Creates a key for `walletId` and records its address in the store; returns the EVM address. */
  createKey(walletId: string): Promise<Address>;
  /** Deletes the key made for a wallet that was never stored (no funds can have reached its address). */
  discardKey(walletId: string): Promise<void>;
  /** A viem account whose every signature (transactions, EIP-712, messages, EIP-7702 authorizations) the provider makes. */
  signer(walletId: string): Promise<LocalAccount>;
  /** A signature over a 32-byte digest with the wallet's key: low-`s`, checked to recover to its address. */
  signDigest(walletId: string, digest: Hex): Promise<Signature>;
  /** The account of a service key; `create` makes it when missing (the sandbox; the keys command). */
  serviceSigner(label: ServiceKeyLabel, options?: { create?: boolean }): Promise<LocalAccount>;
  /** Throws when the provider cannot sign now (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}
