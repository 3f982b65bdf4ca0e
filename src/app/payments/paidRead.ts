import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { ServiceError, type ServiceErrorOptions } from '../../domain/errors/base';
import { invalidRequest } from '../../domain/errors/request';
import { forbidden, rateLimitExceeded } from '../../domain/errors/auth';
import { countInWindow, retryAfterSeconds, takeInWindow } from '../accounts/rateLimit';
import type { Account } from '../../domain/types';
import type { Operation } from '../../domain/plans';
import { PaymentRejected, type InspectedProof, type PaymentProof, type PaymentVerifier, type VerifiedPayment } from '../../ports/payments';

/** Invalid proofs one payer (the authorization's `from`, when it signed the proof itself) may send per minute. */
export const INVALID_PROOFS_PER_MINUTE_PER_PAYER = 20;
/** Invalid proofs one client address may send per minute: garbage cannot make the service spend RPC calls without bound. */
export const INVALID_PROOFS_PER_MINUTE_PER_CLIENT = 60;
/** Paid reads one payer may make per minute. */
export const PAID_READS_PER_MINUTE = 120;
/** Paid GET /wallets/:userId one payer may make per minute: each maps a user id to an address, so fewer than other reads. */
export const PAID_WALLET_LOOKUPS_PER_MINUTE = 10;
/** How long a payer's lock is held at most: a holder that crashed blocks that payer's proofs no longer than this. */
export const PAYER_LOCK_MS = 60_000;

/** Where the proof may come in, in order (v2, v1, the API's own header). */
export const PROOF_HEADERS: readonly PaymentProof['header'][] = ['PAYMENT-SIGNATURE', 'X-PAYMENT', 'X-Payment-Proof'];

export interface PaidReadRequest {
  operation: Operation;
  /** The full URL of the read (the x402 `resource`). */
  resource: string;
  /** The first proof header present, if any. */
  proof: PaymentProof | null;
  /** The client's address (src/http/clientAddress.ts), for the invalid-proof limit. */
  clientIp: string;
  /** X-Account-Id: which account's namespace a paid GET /wallets/:userId reads. */
  accountId: string | undefined;
  /** The user id a paid GET /wallets/:userId looks up. */
  userId?: string;
}

/** A paid read admitted: who pays, and how to end it once the read has answered. */
export interface PaidRead {
  principal: Principal;
  /**
   * Ends the paid read; call it exactly once, after the read ran and before
   * its answer is sent. `served`: the read answered 2xx. A served read is
   * settled first: the settlement header to send with the read's answer, or
   * PAYMENT_INVALID (settlement_failed) to send instead of it. A read that was
   * not served collects nothing (null). Either way the payer's lock is given back.
   */
  finish(served: boolean): Promise<{ name: string; value: string } | null>;
}

/** What the paid-read path reports: settlements, for the metrics and the log. */
export interface PaidReadEvents {
  settled?: () => void;
  settlementFailed?: (info: { payer: string; network: string; reason: string | undefined }) => void;
}

/** Paid callers have no account: reads see them on the free plan's networks (test networks). */
const payerAccount = (payer: string): Account => ({ id: `payer:${payer.toLowerCase()}`, plan: 'free', createdAt: new Date(0).toISOString() });

/** User ids that read as e-mail addresses: a paid lookup of one maps a person's e-mail to a wallet address. */
export const looksLikeEmail = (userId: string): boolean => /^[^\s@]+@[^\s@]+$/.test(userId);

/** Counts one event in `name`'s one-minute window; RATE_LIMIT_EXCEEDED past `limit`. */
async function withinLimit(deps: Pick<AppDeps, 'store' | 'clock'>, name: string, limit: number): Promise<void> {
  const w = await countInWindow(deps, name, limit);
  if (w.exceeded) throw rateLimitExceeded(limit, w.reset, retryAfterSeconds(w, deps.clock.now()));
}

/** The invalid-proof windows a proof counts in: its client address always; its payer only when the payer signed it (InspectedProof.signedByPayer). */
function invalidProofWindows(clientIp: string, inspected: InspectedProof | null): { name: string; limit: number }[] {
  const windows = [{ name: `paybad:client:${clientIp}`, limit: INVALID_PROOFS_PER_MINUTE_PER_CLIENT }];
  if (inspected?.signedByPayer) windows.push({ name: `paybad:payer:${inspected.payer}`, limit: INVALID_PROOFS_PER_MINUTE_PER_PAYER });
  return windows;
}

/**
 * Counts a proof as invalid before anything is spent on it: one slot in each
 * window, taken atomically, or RATE_LIMIT_EXCEEDED (nothing counted) when a
 * window is full. A proof that then verifies gives its slots back, so valid
 * proofs never fill a window.
 */
async function takeInvalidProofSlots(deps: Pick<AppDeps, 'store' | 'clock'>, windows: { name: string; limit: number }[]): Promise<() => Promise<void>> {
  const taken: (() => Promise<void>)[] = [];
  const giveBack = async () => {
    await Promise.all(taken.map((g) => g()));
  };
  for (const w of windows) {
    const slot = await takeInWindow(deps, w.name, w.limit);
    if (slot.state.exceeded) {
      await giveBack();
      throw rateLimitExceeded(w.limit, slot.state.reset, retryAfterSeconds(slot.state, deps.clock.now()));
    }
    taken.push(slot.giveBack);
  }
  return giveBack;
}

/**
 * docs/api-guide.md, "Paying per request" as a use-case: a read without an
 * account, paid for per request over x402. No proof: 402 PAYMENT_REQUIRED
 * with the offer. A proof goes through, in order:
 *
 * 1. decoded and matched to the offer with no chain call (PaymentVerifier.inspect);
 * 2. the payer's lock taken in the store: one payer's proofs are verified and
 *    settled one at a time on every instance, so two proofs never spend one
 *    balance (a proof arriving while the lock is held: PAYMENT_INVALID payer_busy);
 * 3. counted as invalid before any chain call (its client address, and its
 *    payer when the payer signed it): a full window refuses it unverified (429);
 * 4. verified on chain; a valid proof gives its invalid-proof slots back;
 * 5. the paid-read limits of the payer, the authorization's nonce claimed;
 * 6. the read runs as a paid principal and `finish` settles it before its
 *    answer goes out: a read is never sent unpaid.
 *
 * Refusals are 402 PAYMENT_INVALID with `details.reason` and the offer again.
 */
export async function admitPaidRead(
  deps: Pick<AppDeps, 'store' | 'clock'> & { payments: PaymentVerifier; paidReadEvents?: PaidReadEvents },
  req: PaidReadRequest,
): Promise<PaidRead> {
  const offer = await deps.payments.offer(req.resource);
  const withOffer = { paymentOffer: { header: offer.header, v1: offer.v1 } };
  if (req.proof === null) {
    throw new ServiceError(
      'PAYMENT_REQUIRED',
      'This read costs 0.001 USDC: pay with x402 (the PAYMENT-REQUIRED header, or accepts in this body), or send an API key',
      {
        ...withOffer,
        details: { price: '0.001', asset: 'USDC', proofHeaders: PROOF_HEADERS },
      },
    );
  }
  const invalid = (reason: string, message: string, facts: Pick<ServiceErrorOptions, 'retryAfterSeconds' | 'paymentSettlement'> = {}) =>
    new ServiceError('PAYMENT_INVALID', message, { ...withOffer, ...facts, details: { reason } });

  let walletAccount: Account | null = null;
  if (req.operation === 'getWallet') {
    if (!req.accountId)
      throw invalidRequest([{ path: 'X-Account-Id', message: 'a paid GET /wallets/:userId needs X-Account-Id: user ids are unique per account' }]);
    walletAccount = await deps.store.accounts.get(req.accountId);
    // Decided before any proof is looked at: an unknown account refuses exactly as one that did not opt in.
    if (looksLikeEmail(req.userId ?? '') && walletAccount?.paidEmailLookups !== true) {
      throw forbidden('A paid read cannot look up a user id that is an e-mail address unless the account allows it: use an API key of the account', {
        reason: 'email_user_id',
      });
    }
  }

  let inspected: InspectedProof;
  try {
    inspected = await deps.payments.inspect(req.proof, req.resource);
  } catch (e) {
    if (!(e instanceof PaymentRejected)) throw e;
    await takeInvalidProofSlots(deps, invalidProofWindows(req.clientIp, null));
    throw invalid(e.reason, e.message);
  }
  const replayed = () => invalid('nonce_already_used', 'This payment was already used for a read: sign a new one');
  if (await deps.store.paymentNonces.isClaimed(inspected.nonceKey)) {
    await takeInvalidProofSlots(deps, invalidProofWindows(req.clientIp, null));
    throw replayed();
  }

  const lockKey = inspected.payer;
  const owner = randomUUID();
  const nowMs = deps.clock.now().getTime();
  if (!(await deps.store.paymentLocks.acquire(lockKey, owner, nowMs, nowMs + PAYER_LOCK_MS))) {
    throw invalid('payer_busy', 'Another payment of this payer is being verified or settled: send this one again once it is answered', {
      retryAfterSeconds: 1,
    });
  }
  const release = () => deps.store.paymentLocks.release(lockKey, owner);

  let verified: VerifiedPayment;
  try {
    const giveBack = await takeInvalidProofSlots(deps, invalidProofWindows(req.clientIp, inspected));
    try {
      verified = await deps.payments.verify(req.proof, req.resource);
    } catch (e) {
      if (!(e instanceof PaymentRejected)) {
        // A chain that did not answer is no fault of the proof: its slots go back.
        await giveBack();
        throw e;
      }
      throw invalid(e.reason, e.message);
    }
    await giveBack();
    await withinLimit(deps, `payer:${verified.payer.toLowerCase()}`, PAID_READS_PER_MINUTE);
    if (req.operation === 'getWallet') await withinLimit(deps, `paywallet:${verified.payer.toLowerCase()}`, PAID_WALLET_LOOKUPS_PER_MINUTE);
    const claimed = await deps.store.paymentNonces.claim(verified.nonceKey, {
      payer: verified.payer,
      network: verified.network,
      at: deps.clock.now().toISOString(),
    });
    if (!claimed) throw replayed();
  } catch (e) {
    await release();
    throw e;
  }

  // An unknown account reads as one without that user: 404 from the read itself.
  const account = req.operation === 'getWallet' ? (walletAccount ?? { ...payerAccount(verified.payer), id: req.accountId! }) : payerAccount(verified.payer);
  let finished = false;
  return {
    principal: { account, keyId: null, scopes: ['read'], via: 'payment' },
    async finish(served) {
      if (finished) throw new Error('PaidRead.finish called twice');
      finished = true;
      try {
        // Nothing served: nothing collected (the nonce stays claimed).
        if (!served) return null;
        const settlement = await verified.settle();
        const header = verified.responseHeader(settlement);
        if (settlement.success) {
          deps.paidReadEvents?.settled?.();
          return header;
        }
        deps.paidReadEvents?.settlementFailed?.({ payer: settlement.payer, network: settlement.network, reason: settlement.errorReason });
        // A proof that verified and then could not pay (its balance went elsewhere meanwhile) counts as invalid, without refusing this answer as 429.
        await Promise.all(invalidProofWindows(req.clientIp, inspected).map((w) => countInWindow(deps, w.name, w.limit)));
        throw invalid(
          'settlement_failed',
          `The payment could not be settled (${settlement.errorReason ?? 'unknown reason'}): the read is not served; sign a new payment`,
          { paymentSettlement: header },
        );
      } finally {
        await release();
      }
    },
  };
}
