import type { Wallet } from '../../domain/types';

/** The wallet resource of the API's "Wallet" as both front doors return it. */
export interface WalletView {
  id: string;
  userId: string;
  address: string;
  chainType: Wallet['chainType'];
  chains: string[];
  email?: string;
  metadata: Record<string, unknown>;
  /** The wallet's own spending policy; null when none (its account policy, if any, governs it). Null on paid reads. */
  policyId: string | null;
  createdAt: string;
}

/**
 * A wallet as a paid (x402) reader sees it: no `email`, no `metadata` (they
 * are the account's, not the payer's; left out, not emptied, so the shape
 * says what it means), and `policyId` null.
 */
export type PaidWalletView = Omit<WalletView, 'email' | 'metadata'>;

/** The wallet as its account sees it. */
export function toWalletView(w: Wallet): WalletView {
  const view: WalletView = {
    id: w.id,
    userId: w.userId,
    address: w.address,
    chainType: w.chainType,
    chains: [...w.chains],
    metadata: w.metadata,
    policyId: w.policyId ?? null,
    createdAt: w.createdAt,
  };
  if (w.email) view.email = w.email;
  return view;
}

/** The wallet as a paid reader sees it (PaidWalletView). */
export function toPaidWalletView(w: Wallet): PaidWalletView {
  return { id: w.id, userId: w.userId, address: w.address, chainType: w.chainType, chains: [...w.chains], policyId: null, createdAt: w.createdAt };
}
