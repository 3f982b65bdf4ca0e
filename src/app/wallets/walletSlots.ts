import type { AppDeps } from '../deps';
import type { Account } from '../../domain/types';
import { PLANS } from '../../domain/plans';
import { walletLimitExceeded } from '../../domain/errors/wallet';
import { ServiceError } from '../../domain/errors/base';

/** Wallets are never deleted, so an account's slot counter never expires. */
const NEVER = new Date(Date.UTC(9999, 0, 1));

/** Reads that find the counter behind the wallets before giving up (each conditional raise lost means another creation moved it). */
const RAISE_ATTEMPTS = 8;

const slotKey = (accountId: string): string => `walletSlots:${accountId}`;

/** A slot taken for one creation; give it back when the wallet is not created after all. */
export interface WalletSlot {
  release(): Promise<void>;
}

const unlimited: WalletSlot = { release: async () => undefined };

/**
 * Takes one of the plan's wallet slots for a creation about to happen, in
 * one conditional increment of the account's counter (`incrementIfAtMost`,
 * the guard the credits use), so concurrent creations, on one instance or
 * several, never pass the limit: a count-then-insert would let every
 * creation that counted before the others inserted through. The counter
 * holds the wallets created plus the creations under way; a creation that
 * fails gives its slot back. Wallets the counter never saw (created before
 * it existed) are counted in first: when the account holds more wallets than
 * the counter says, it is raised to that number, in a conditional increment
 * that only applies if the counter did not move since it was read.
 * Throws WALLET_LIMIT_EXCEEDED when no slot is left.
 */
export async function takeWalletSlot(deps: Pick<AppDeps, 'store'>, account: Account): Promise<WalletSlot> {
  const limit = PLANS[account.plan].wallets;
  if (limit === null) return unlimited;
  const { usage, wallets } = deps.store;
  const key = slotKey(account.id);
  for (let attempt = 1; ; attempt++) {
    // Read in this order: a wallet counted here had its slot taken before, so the counter read after includes it.
    const created = await wallets.countByAccount(account.id);
    const counted = await usage.get(key);
    if (counted < created) {
      if (attempt >= RAISE_ATTEMPTS)
        throw new ServiceError('SERVICE_UNAVAILABLE', 'Wallet creation is busy for this account; try again', { retryAfterSeconds: 1 });
      // Adds the difference only while the counter is still at `counted` (the result may not pass `created`).
      await usage.incrementIfAtMost(key, created - counted, created, NEVER);
      continue;
    }
    if ((await usage.incrementIfAtMost(key, 1, limit, NEVER)) === null) throw walletLimitExceeded(account.plan, limit);
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        await usage.increment(key, -1, NEVER);
      },
    };
  }
}
