import type { Middleware, ParameterizedContext } from 'koa';
import type { AppDeps } from '../../app/deps';
import type { RestState, RestContext } from '../context';
import { PAYABLE_OPERATIONS, type Operation } from '../../domain/plans';
import { PROOF_HEADERS, admitPaidRead, type PaidReadEvents, type PaidReadRequest } from '../../app/payments/paidRead';
import type { ClientAddress } from '../../http/clientAddress';
import { param } from '../params';
import { admitRequest, authorizeOperation } from '../../app/accounts/admitRequest';
import { rateHeaders } from '../../app/accounts/rateLimit';
import { CREDITS_REMAINING_HEADER, creditHeaders, readCreditHeaders } from '../../app/accounts/credits';
import { ServiceError } from '../../domain/errors/base';
import type { Principal } from '../../app/accounts/principal';

export interface AdmissionOptions {
  /** The client's address of a request (TRUSTED_PROXIES): the invalid-proof limit counts by it. */
  clientAddress: ClientAddress;
  /** Settlements of paid reads, for the metrics and the log. */
  events?: PaidReadEvents;
}

/** The first proof header the request carries. */
function proofOf(ctx: RestContext): PaidReadRequest['proof'] {
  for (const header of PROOF_HEADERS) {
    const value = ctx.get(header);
    if (value) return { header, value };
  }
  return null;
}

/**
 * A read the API lets a client pay for, asked with no credentials at all:
 * 402 with the offer, or, with a proof, the read run as a paid principal and
 * its answer held until the payment is settled (admitPaidRead): a 2xx goes
 * out with its settlement header, or, when the settlement fails, a 402
 * PAYMENT_INVALID goes out instead of it (the read's body is never sent).
 */
async function paidRead(
  deps: AppDeps & Required<Pick<AppDeps, 'payments'>>,
  ctx: RestContext,
  next: () => Promise<unknown>,
  o: AdmissionOptions,
): Promise<void> {
  const operation = ctx.routerName as Operation;
  const paid = await admitPaidRead(
    { ...deps, paidReadEvents: o.events },
    {
      operation,
      resource: `${ctx.protocol}://${ctx.host}${ctx.originalUrl}`,
      proof: proofOf(ctx),
      clientIp: o.clientAddress(ctx.req),
      accountId: ctx.get('X-Account-Id') || undefined,
      userId: operation === 'getWallet' ? param(ctx, 'userId') : undefined,
    },
  );
  ctx.state.principal = paid.principal;
  try {
    await next();
  } catch (e) {
    await paid.finish(false);
    throw e;
  }
  // Koa sends the body only once every middleware has returned: until then the read's answer is held here.
  const header = await paid.finish(ctx.status >= 200 && ctx.status < 300);
  // (cross-origin callers read it through the CORS policy's exposed headers, which name both settlement headers)
  if (header) ctx.set(header.name, header.value);
}

/**
 * X-Credits-Remaining for the answer to an admitted key, once the request is
 * done. The count comes from what the request already saw (`used`), with no
 * store round trip of its own: a charged operation's reservation returns the
 * counter after its increment (for a 2xx that is the value after this
 * request's charge; a refused or failed one is refunded, and the refund's
 * decrement returns the counter again), GET /usage read it, and a
 * CREDITS_EXHAUSTED refusal carries the header itself. Only an answer that
 * reached no operation (a body refused before it, a scope refusal, an unknown
 * route) reads the counter once, and never for an unlimited plan. A read that
 * fails leaves the header out rather than failing the answer. Null: no header
 * to set.
 */
export function creditHeadersFor(
  deps: AppDeps,
  principal: Principal,
  used: number | undefined,
  thrown?: unknown,
): Record<string, string> | Promise<Record<string, string>> | null {
  if (principal.via !== 'apiKey') return null; // a paid read has no credits of its own
  if (thrown instanceof ServiceError && CREDITS_REMAINING_HEADER in thrown.quotaHeaders) return null;
  return used !== undefined ? creditHeaders(principal.account, used) : readCreditHeaders(deps, principal.account).catch(() => ({}));
}

async function setCreditHeaders(deps: AppDeps, ctx: ParameterizedContext<RestState>, principal: Principal, thrown?: unknown): Promise<void> {
  const headers = creditHeadersFor(deps, principal, ctx.state.creditsUsed, thrown);
  if (headers) ctx.set(headers instanceof Promise ? await headers : headers);
}

/**
 * Authenticates the key and counts the request; the rate headers go on every
 * answer from here on, and X-Credits-Remaining once the answer is known
 * (setCreditHeaders). A payable read (its route is named after one of
 * PAYABLE_OPERATIONS) with no Authorization header at all takes the x402 path
 * instead; a bad or revoked key stays 401 and never turns into a payment.
 */
export function admission(deps: AppDeps, o: AdmissionOptions): Middleware<RestState> {
  return async (ctx, next) => {
    const authorization = ctx.get('Authorization') || undefined;
    if (authorization === undefined && deps.payments && PAYABLE_OPERATIONS.has(ctx.routerName as Operation)) {
      return paidRead({ ...deps, payments: deps.payments }, ctx as RestContext, next, o);
    }
    const { principal, rate } = await admitRequest(deps, authorization);
    ctx.state.principal = principal;
    ctx.set(rateHeaders(rate));
    try {
      await next();
    } catch (e) {
      // (the error handler keeps headers set before it answers)
      await setCreditHeaders(deps, ctx, principal, e);
      throw e;
    }
    await setCreditHeaders(deps, ctx, principal);
  };
}

/**
 * One billable operation: scope check, credits reserved, refunded unless
 * `run` answers that it succeeded (2xx); `noteUsed` gets the counter the
 * reservation (then the refund) left, for X-Credits-Remaining without a read.
 * Koa's routes (operation()) and the front door's fast reads (fastKeyedReads)
 * both charge through it.
 */
export async function runCharged(
  deps: AppDeps,
  principal: Principal,
  op: Operation,
  run: () => Promise<boolean>,
  noteUsed: (used: number) => void,
): Promise<void> {
  const charge = await authorizeOperation(deps, principal, op);
  let ok = false;
  try {
    ok = await run();
  } finally {
    if (!ok) await charge.refund();
    if (charge.usedAfter !== null) noteUsed(charge.usedAfter);
  }
}

/**
 * Wraps a handler as one billable operation (runCharged): the handler succeeded when its answer is 2xx. A handler
 * that read the month's credit counter later than the reservation (a backtest charging beyond its base price, the
 * usage read) sets `creditsUsed` itself, and its reading stands.
 */
export function operation(deps: AppDeps, op: Operation, handler: (ctx: RestContext) => Promise<void>) {
  return async (ctx: RestContext): Promise<void> => {
    const principal = ctx.state.principal;
    if (!principal) throw new Error('operation() used without admission()');
    await runCharged(
      deps,
      principal,
      op,
      async () => {
        await handler(ctx);
        return ctx.status >= 200 && ctx.status < 300;
      },
      (used) => {
        ctx.state.creditsUsed ??= used;
      },
    );
  };
}
