import type { Middleware } from 'koa';
import type { RestState } from '../context';
import type { Metrics } from '../../metrics';
import type { AppDeps } from '../../app/deps';
import type { Principal } from '../../app/accounts/principal';
import { CREDIT_COST, type Operation } from '../../domain/plans';

const isOperation = (name: string | undefined): name is Operation => name !== undefined && Object.hasOwn(CREDIT_COST, name);

/**
 * Credits a REST answer was charged, told to `onCreditsCharged`: a 2xx answer
 * to an API key on a route named after its operation (every `/v1` operation
 * route is) was charged that operation's credits (operation() refunds
 * anything else; payments and sessions pay none). For Koa (outcomeMetrics)
 * and the front door's fast reads (fastKeyedReads).
 */
export function noteCreditsCharged(
  deps: Pick<AppDeps, 'onCreditsCharged'>,
  status: number,
  principal: Principal | undefined,
  operation: string | undefined,
): void {
  if (status >= 200 && status < 300 && principal?.via === 'apiKey' && isOperation(operation) && CREDIT_COST[operation] > 0) {
    deps.onCreditsCharged?.(operation, CREDIT_COST[operation]);
  }
}

/**
 * What a REST answer settled, read once it is final (outside the error
 * handler, so errors are their JSON bodies by then):
 * - credits charged (noteCreditsCharged);
 * - a payment proof refused: 402 PAYMENT_INVALID, with its `details.reason`
 *   (a settlement that failed is counted where it fails, as settlement_failed).
 */
export function outcomeMetrics(deps: Pick<AppDeps, 'onCreditsCharged'>, metrics: Pick<Metrics, 'payments'>): Middleware<RestState> {
  return async (ctx, next) => {
    await next();
    noteCreditsCharged(deps, ctx.status, ctx.state.principal, ctx.routerName);
    if (ctx.status === 402) {
      const body = ctx.body as { error?: unknown; details?: { reason?: unknown } } | undefined;
      if (body?.error === 'PAYMENT_INVALID' && body.details?.reason !== 'settlement_failed')
        metrics.payments.inc({ outcome: 'refused', reason: typeof body.details?.reason === 'string' ? body.details.reason : 'unknown' });
    }
  };
}
