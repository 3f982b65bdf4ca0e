import type { Middleware } from 'koa';
import type { AppDeps } from '../../app/deps';
import type { RestState, RestContext } from '../context';
import { PAYABLE_OPERATIONS, type Operation } from '../../domain/plans';
import { PROOF_HEADERS, admitPaidRead } from '../../app/payments/paidRead';
import type { PaymentProof, PaymentVerifier } from '../../app/payments/port';
import { admitRequest, authorizeOperation } from '../../app/accounts/admitRequest';
import { rateHeaders } from '../../app/accounts/rateLimit';

/** What the paid-read path reports: a read served whose payment could not be collected. */
export interface PaidReadEvents {
  settled?: () => void;
  settlementFailed?: (info: { payer: string; network: string; reason: string | undefined }) => void;
}

/** The first proof header the request carries. */
function proofOf(ctx: RestContext): PaymentProof | null {
  for (const header of PROOF_HEADERS) {
    const value = ctx.get(header);
    if (value) return { header, value };
  }
  return null;
}

/**
 * A read the SPEC lets a client pay for, asked with no credentials at all:
 * 402 with the offer, or, with a proof, the read served as a paid principal
 * and the payment collected after a 2xx (its settlement header on the answer).
 */
async function paidRead(deps: AppDeps & { payments: PaymentVerifier }, ctx: RestContext, next: () => Promise<unknown>, events: PaidReadEvents): Promise<void> {
  const operation = ctx.routerName as Operation;
  const paid = await admitPaidRead(deps, {
    operation,
    resource: `${ctx.protocol}://${ctx.host}${ctx.originalUrl}`,
    proof: proofOf(ctx),
    clientIp: ctx.ip,
    accountId: ctx.get('X-Account-Id') || undefined,
  });
  ctx.state.principal = paid.principal;
  await next();
  if (ctx.status < 200 || ctx.status >= 300) return; // nothing served: nothing collected (the nonce stays claimed)
  const { header, settlement } = await paid.collect();
  // (cross-origin callers read it through the CORS policy's exposed headers, which name both settlement headers)
  ctx.set(header.name, header.value);
  if (settlement.success) events.settled?.();
  else events.settlementFailed?.({ payer: settlement.payer, network: settlement.network, reason: settlement.errorReason });
}

/**
 * Authenticates the key and counts the request; the rate headers go on every
 * answer from here on. A payable read (its route is named after one of
 * PAYABLE_OPERATIONS) with no Authorization header at all takes the x402 path
 * instead; a bad or revoked key stays 401 and never turns into a payment.
 */
export function admission(deps: AppDeps, events: PaidReadEvents = {}): Middleware<RestState> {
  return async (ctx, next) => {
    const authorization = ctx.get('Authorization') || undefined;
    if (authorization === undefined && deps.payments && PAYABLE_OPERATIONS.has(ctx.routerName as Operation)) {
      return paidRead({ ...deps, payments: deps.payments }, ctx as RestContext, next, events);
    }
    const { principal, rate } = await admitRequest(deps, authorization);
    ctx.state.principal = principal;
    ctx.set(rateHeaders(rate));
    await next();
  };
}

/** Wraps a handler as one billable operation: scope check, credits reserved, refunded unless the answer is 2xx. */
export function operation(deps: AppDeps, op: Operation, handler: (ctx: RestContext) => Promise<void>) {
  return async (ctx: RestContext): Promise<void> => {
    const principal = ctx.state.principal;
    if (!principal) throw new Error('operation() used without admission()');
    const charge = await authorizeOperation(deps, principal, op);
    let ok = false;
    try {
      await handler(ctx);
      ok = ctx.status >= 200 && ctx.status < 300;
    } finally {
      if (!ok) await charge.refund();
    }
  };
}
