import type { ChainName, TokenAsset } from '../../domain/chains';
import type { IntentAction, Step } from '../../domain/intent';
import { chainAllowed, toCents, type PolicyRules } from '../../domain/policy';
import { fromUnits, toUnits } from '../../domain/money';
import type { ChainPort } from '../../ports/chain';
import { canBridge } from '../../engine/planning';

/**
 * The one pricing rule of the USD caps (maxUsdPerIntent, maxUsdPerDay),
 * used by submit, preview and the planning-time check: an intent is worth
 * what its plan takes from the wallet, each part priced on the chain it
 * leaves from (a bridge on its source chain, a withdraw or the local part
 * of a deposit on its own chain). Before there is a plan, the request is
 * worth at least its amount at the cheapest price among the chains the plan
 * could take it from: a cap exceeded even there is refused at once.
 */

type Price = Pick<ChainPort, 'priceUsd'>;

/** What the request says about where its funds can come from. */
export interface PricedRequest {
  action: IntentAction;
  asset: TokenAsset;
  amount: string;
  chain?: ChainName;
  fromChain?: ChainName;
  /** Rebalance: where its funds come from. */
  sources?: readonly { chain: ChainName }[];
}

/** The chains the plan of `request` could take its funds from: the wallet's served chains the policy allows, narrowed by what the request names. */
export function sourceChains(request: PricedRequest, walletChains: readonly ChainName[], rules: PolicyRules | undefined): ChainName[] {
  if (request.action === 'bridge' && request.fromChain !== undefined) return [request.fromChain];
  if (request.action === 'withdraw' && request.chain !== undefined) return [request.chain];
  if (request.action === 'rebalance' && request.sources !== undefined) return [...new Set(request.sources.map((s) => s.chain))];
  const target = request.chain;
  const usable = walletChains.filter((c) => chainAllowed(rules, c));
  if (target === undefined) return usable;
  // a lend on a named chain draws there, and from the chains it can bridge from
  return usable.filter((c) => c === target || canBridge(request.asset, c, target)).concat(usable.includes(target) ? [] : [target]);
}

/** The least the request can be worth, in cents: its amount at the cheapest price among `chains` (at least one). */
export async function requestFloorCents(prices: Price, request: PricedRequest, chains: readonly ChainName[]): Promise<bigint> {
  const quotes = await Promise.all(chains.map((c) => prices.priceUsd(request.asset, c)));
  const cheapest = Math.min(...quotes);
  return toCents(Number(request.amount) * cheapest);
}

/**
 * What each chain gives of the wallet's funds under `steps`, in smallest
 * units of `asset`: a bridge or a deposit gives only what no earlier step of
 * the plan brought to its chain (a rebalance's withdraw, a bridge's arrival),
 * so funds the plan moves twice count once.
 */
export function planOutflows(steps: readonly Step[], asset: TokenAsset): Map<ChainName, bigint> {
  const out = new Map<ChainName, bigint>();
  const add = (chain: ChainName, units: bigint): void => void out.set(chain, (out.get(chain) ?? 0n) + units);
  const brought = new Map<ChainName, bigint>();
  /** Counts `units` leaving `chain`, less what the plan brought there already (used up as it is spent). */
  const spend = (chain: ChainName, units: bigint): void => {
    const there = brought.get(chain) ?? 0n;
    const covered = there < units ? there : units;
    brought.set(chain, there - covered);
    if (units > covered) add(chain, units - covered);
  };
  for (const step of steps) {
    if (step.type === 'bridge') {
      const units = toUnits(step.amount, 'USDC');
      spend(step.from, units);
      brought.set(step.to, (brought.get(step.to) ?? 0n) + units - toUnits(step.fee ?? '0', 'USDC'));
    } else if (step.type === 'withdraw') {
      const units = toUnits(step.amount, step.asset ?? asset);
      add(step.chain, units);
      brought.set(step.chain, (brought.get(step.chain) ?? 0n) + units);
    } else {
      spend(step.chain, toUnits(step.amount, step.asset ?? asset));
    }
  }
  return out;
}

/** What the plan is worth, in cents: each chain's outflow at that chain's price (rounded up once, on the total). */
export async function planCents(prices: Price, steps: readonly Step[], asset: TokenAsset): Promise<bigint> {
  const parts = await Promise.all(
    [...planOutflows(steps, asset)].map(async ([chain, units]) => {
      const price = await prices.priceUsd(asset, chain);
      return Number(fromUnits(units, asset)) * price;
    }),
  );
  return toCents(parts.reduce((a, b) => a + b, 0));
}
