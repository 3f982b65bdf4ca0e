/**
 * The payment port (x402, docs/api-guide.md, paid reads): what a paid read needs from
 * whoever checks and collects payments. The adapter wraps the x402 project's
 * own packages (src/chain/x402); the front door only reads and writes headers.
 */

/** What a client must pay, in both protocol versions. */
export interface PaymentOffer {
  /** v2 `PAYMENT-REQUIRED` header value (base64 JSON). */
  header: string;
  /** v1 fields sent in the JSON body beside the error object: `x402Version: 1`, `accepts`. */
  v1: { x402Version: 1; accepts: unknown[] };
}

/** A proof as it arrived: which header, and its raw value. */
export interface PaymentProof {
  header: 'PAYMENT-SIGNATURE' | 'X-PAYMENT' | 'X-Payment-Proof';
  value: string;
}

/** The outcome of a settlement, as the response header reports it. */
export interface Settlement {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
  errorReason?: string;
}

/** A proof that passed every check: who pays, the nonce to claim, and how to collect. */
export interface VerifiedPayment {
  version: 1 | 2;
  payer: string;
  network: string;
  /** Unique per authorization: network, payer and the EIP-3009 nonce. */
  nonceKey: string;
  /** Sends the transfer on chain; resolves with the outcome (never rejects). */
  settle(): Promise<Settlement>;
  /** The value of the settlement header (`PAYMENT-RESPONSE` for v2, `X-PAYMENT-RESPONSE` for v1). */
  responseHeader(s: Settlement): { name: string; value: string };
}

/** Why a proof was refused (`details.reason` of PAYMENT_INVALID). */
export class PaymentRejected extends Error {
  override readonly name = 'PaymentRejected';
  constructor(
    readonly reason: string,
    message: string,
    /** The authorization's nonce key, when the proof got far enough to name it. */
    readonly nonceKey?: string,
  ) {
    super(message);
  }
}

/** What a proof says about itself, read without any chain call. */
export interface InspectedProof {
  /** The authorization's `from`, lower-case: who the proof says pays (not proven yet). */
  payer: string;
  /** As VerifiedPayment.nonceKey. */
  nonceKey: string;
  /**
   * Whether the signature recovers to `payer` off chain (an externally owned
   * account's signature). Only then do the proof's failures count against the
   * payer: a forged proof naming someone else's address cannot use up that
   * payer's allowance of invalid proofs. A contract wallet's signature is
   * checked on chain by `verify` and reads false here.
   */
  signedByPayer: boolean;
}

export interface PaymentVerifier {
  /** The requirements for `resource` (the full URL of the read). */
  offer(resource: string): Promise<PaymentOffer>;
  /** Decodes a proof and matches it to the offer for `resource`, with no chain call; PaymentRejected when it is not a well-formed proof of one of our offers. */
  inspect(proof: PaymentProof, resource: string): Promise<InspectedProof>;
  /** Decodes and verifies a proof for `resource` (signature, payee, exact amount, time window, payer balance by simulation); PaymentRejected when it fails. */
  verify(proof: PaymentProof, resource: string): Promise<VerifiedPayment>;
}
