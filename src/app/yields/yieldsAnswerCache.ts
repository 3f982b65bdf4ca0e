import type { AppDeps } from '../deps';
import type { MarketRate } from '../../ports/chain';
import type { Principal } from '../accounts/principal';

/**
 * The answer to GET /v1/yields without a query, serialized once per rates
 * snapshot: the report with no filters is a function of the rates the read
 * cache holds (getYields reads nothing of the caller without a `chain` or an
 * `optimize`), so while the same snapshot is fresh in that cache every
 * request would rebuild and serialize the same report. A fresh snapshot that
 * was serialized is answered at once, with no await; anything else (no
 * snapshot yet, a stale one whose refresh the read must start, a new one)
 * takes `read` and keeps its text when the snapshot did not change while it
 * ran, so the text always belongs to the snapshot it is filed under.
 */
export function yieldsAnswerCache(
  deps: Pick<AppDeps, 'caches'>,
  read: (principal: Principal) => Promise<unknown>,
): (principal: Principal) => string | Promise<string> {
  const rates = deps.caches.rates;
  let kept: { snapshot: MarketRate[]; text: string } | undefined;
  const slow = async (principal: Principal): Promise<string> => {
    const before = rates.peek('all');
    const text = JSON.stringify(await read(principal));
    if (before !== undefined && rates.peek('all') === before) kept = { snapshot: before, text };
    return text;
  };
  return (principal) => (kept !== undefined && rates.getRemainingTTL('all') > 0 && rates.peek('all') === kept.snapshot ? kept.text : slow(principal));
}
