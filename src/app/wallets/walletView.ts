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

/** Paid (proof) readers never see `email` or `metadata` (docs/decisions.md). */
export function toWalletView(w: Wallet, audience: 'owner' | 'paid' = 'owner'): WalletView {
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
  if (audience === 'paid') {
    view.metadata = {};
    view.policyId = null;
    return view;
  }
  if (w.email) view.email = w.email;
  return view;
}
