import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { ServiceError } from '../../domain/errors/base';
import { invalidRequest } from '../../domain/errors/request';
import { rateLimitExceeded } from '../../domain/errors/auth';
import { countInWindow, retryAfterSeconds } from '../accounts/rateLimit';
import type { Account } from '../../domain/types';
import type { Operation } from '../../domain/plans';
import { PaymentRejected, type PaymentProof, type PaymentVerifier, type Settlement } from './port';

/** Invalid proofs one client address may send per minute: garbage cannot make the service spend RPC calls without bound. */
export const INVALID_PROOFS_PER_MINUTE = 20;
/** Paid reads one payer may make per minute. */
export const PAID_READS_PER_MINUTE = 120;

/** Where the proof may come in, in order (v2, v1, the API's own header). */
export const PROOF_HEADERS: readonly PaymentProof['header'][] = ['PAYMENT-SIGNATURE', 'X-PAYMENT', 'X-Payment-Proof'];

export interface PaidReadRequest {
  operation: Operation;
  /** The full URL of the read (the x402 `resource`). */
  resource: string;
  /** The first proof header present, if any. */
  proof: PaymentProof | null;
  /** The client's address, for the invalid-proof limit. */
  clientIp: string;
  /** X-Account-Id: which account's namespace a paid GET /wallets/:userId reads. */
  accountId: string | undefined;
}

/** A paid read admitted: who pays, and how to collect once the read answered 2xx. */
export interface PaidRead {
  principal: Principal;
  /** Settles the payment; the header to answer with, and whether it succeeded. */
  collect(): Promise<{ header: { name: string; value: string }; settlement: Settlement }>;
}

/** Paid callers have no account: reads see them on the free plan's networks (test networks). */
const payerAccount = (payer: string): Account => ({ id: `payer:${payer.toLowerCase()}`, plan: 'free', createdAt: new Date(0).toISOString() });

/** Counts one event in `name`'s one-minute window; RATE_LIMIT_EXCEEDED past `limit`. */
async function withinLimit(deps: Pick<AppDeps, 'store' | 'clock'>, name: string, limit: number): Promise<void> {
  const w = await countInWindow(deps, name, limit);
  if (w.exceeded) throw rateLimitExceeded(limit, w.reset, retryAfterSeconds(w, deps.clock.now()));
}

/**
 * docs/api-guide.md, "Paying per request" as a use-case: a read without an account, paid for
 * per request over x402. No proof: 402 PAYMENT_REQUIRED with the offer. A
 * proof: decoded and verified by the payment port, the authorization's nonce
 * claimed in the store (one proof is served once, however often it is sent at
 * once), then the read runs as a paid principal and the caller collects
 * after a 2xx. Refusals are 402 PAYMENT_INVALID with `details.reason` and the
 * offer again; invalid proofs count against the client address, paid reads
 * against the payer.
 */
export async function admitPaidRead(deps: Pick<AppDeps, 'store' | 'clock'> & { payments: PaymentVerifier }, req: PaidReadRequest): Promise<PaidRead> {
  const offer = await deps.payments.offer(req.resource);
  const withOffer = { headers: { 'PAYMENT-REQUIRED': offer.header, 'WWW-Authenticate': 'Bearer' }, bodyExtras: offer.v1 };
  if (req.proof === null) {
    throw new ServiceError('PAYMENT_REQUIRED', 'This read costs 0.001 USDC: pay with x402 (the PAYMENT-REQUIRED header, or accepts in this body), or send an API key', {
      ...withOffer,
      details: { price: '0.001', asset: 'USDC', proofHeaders: PROOF_HEADERS },
    });
  }
  const refuse = async (reason: string, message: string): Promise<never> => {
    await withinLimit(deps, `paybad:${req.clientIp}`, INVALID_PROOFS_PER_MINUTE);
    throw new ServiceError('PAYMENT_INVALID', message, { ...withOffer, details: { reason } });
  };
  if (req.operation === 'getWallet' && !req.accountId) {
    throw invalidRequest([{ path: 'X-Account-Id', message: 'a paid GET /wallets/:userId needs X-Account-Id: user ids are unique per account' }]);
  }

  let verified;
  try {
    verified = await deps.payments.verify(req.proof, req.resource);
  } catch (e) {
    if (!(e instanceof PaymentRejected)) throw e;
    // Served once already: the chain refuses the spent authorization too, but this says why.
    if (e.nonceKey !== undefined && (await deps.store.paymentNonces.isClaimed(e.nonceKey))) {
      return refuse('nonce_already_used', 'This payment was already used for a read: sign a new one');
    }
    return refuse(e.reason, e.message);
  }
  await withinLimit(deps, `payer:${verified.payer.toLowerCase()}`, PAID_READS_PER_MINUTE);
  const claimed = await deps.store.paymentNonces.claim(verified.nonceKey, { payer: verified.payer, network: verified.network, at: deps.clock.now().toISOString() });
  if (!claimed) return refuse('nonce_already_used', 'This payment was already used for a read: sign a new one');

  let account = payerAccount(verified.payer);
  if (req.operation === 'getWallet') {
    const named = await deps.store.accounts.get(req.accountId!);
    // an unknown account reads as one without that user: 404 from the read itself
    account = named ?? { ...account, id: req.accountId! };
  }
  return {
    principal: { account, keyId: null, scopes: ['read'], via: 'payment' },
    async collect() {
      const settlement = await verified.settle();
      return { header: verified.responseHeader(settlement), settlement };
    },
  };
}
