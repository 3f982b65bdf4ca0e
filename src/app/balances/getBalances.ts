import { ServiceError } from '../../domain/errors/base';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { ChainHoldings } from '../../ports/chain';
import type { PositionLedgerEntry } from '../../ports/store';
import type { Wallet } from '../../domain/types';
import { ASSET_DECIMALS, type Asset, type ChainName } from '../../domain/chains';
import { fromUnits } from '../../domain/money';
import { getWalletById } from '../wallets/getWallet';
import { fetchFresh } from '../caches';
import { booksOf, positionEarnings } from './principal';

export interface TokenBalanceView {
  asset: Asset;
  /** The token's contract (a position: the token supplied); null for native ETH. A protocol's own test token is never reported as USDC. */
  token: string | null;
  /** Smallest units, integer string. */
  balance: string;
  balanceFormatted: string;
  decimals: number;
  valueUsd: number;
}

export interface PositionView extends TokenBalanceView {
  protocol: string;
  /**
   * What the wallet supplied through the service, net of what it took back
   * (decimal string, token units, exact): the position ledger's principal. A
   * rebalance carries the principal it moved (less the move's bridge fees)
   * to the new position; the interest it moved stays `earned`.
   * Null when the service never supplied to this position (funds supplied
   * outside it): no guess.
   */
  principal: string | null;
  /**
   * The interest the service's supplies to the position accrued (decimal
   * string, token units, exact), interest a rebalance carried here included:
   * what the protocol's index grew them by. Null with `principal`.
   */
  earned: string | null;
  /**
   * What others supplied to the position on the wallet's behalf (an Aave
   * `supply(onBehalfOf)`, a Comet `supplyTo`), not counted as interest.
   * Absent when the ledger has no index for the position (entries older than
   * indices: earned is then balance − principal, never below 0).
   */
  external?: string;
}

export interface BalanceReport {
  walletId: string;
  address: string;
  chains: { chain: ChainName; tokens: TokenBalanceView[]; positions: PositionView[] }[];
  /** Tokens plus lending positions, every chain. */
  totalValueUsd: number;
}

/** USD in integer micro-dollars so the total is exactly the sum of the entries. */
const MICRO = 1_000_000;

/** A wallet's position ledger once this instance's writes in flight for it have landed (ledgerWrites.ts). */
export async function ledgerOf(deps: Pick<AppDeps, 'store' | 'ledgerWrites'>, walletId: string): Promise<PositionLedgerEntry[]> {
  await deps.ledgerWrites?.settled(walletId);
  return deps.store.positionLedger.listByWallet(walletId);
}

/** Wallet holdings through the per-wallet cache. */
export async function walletHoldings(deps: Pick<AppDeps, 'chains' | 'caches'>, wallet: Wallet): Promise<ChainHoldings[]> {
  const kept = await fetchFresh(deps.caches.holdings, wallet.id, { chains: deps.chains, wallet });
  if (!kept) throw new ServiceError('SERVICE_UNAVAILABLE', 'Balances could not be read', { details: { walletId: wallet.id } });
  return kept.holdings;
}

/**
 * the API balance report: every chain of the wallet listed (`tokens: []` when
 * empty, upcoming chains included), balances as integer strings and decimals,
 * USD values, and the wallet's lending positions per chain with what each
 * earned since the service supplied it (the position ledger's principal).
 */
export async function getBalances(
  deps: Pick<AppDeps, 'store' | 'chains' | 'caches' | 'ledgerWrites'>,
  principal: Principal,
  walletId: string,
): Promise<BalanceReport> {
  const wallet = await getWalletById(deps, principal, walletId);
  const [holdings, ledger] = await Promise.all([walletHoldings(deps, wallet), ledgerOf(deps, wallet.id)]);
  const books = booksOf(ledger);
  const byChain = new Map(holdings.map((h) => [h.chain, h]));
  // Each holding is valued with the price feed of the chain that holds it (ETH/WETH differ per chain's feed).
  const priceKey = (chain: ChainName, asset: Asset) => `${chain}:${asset}`;
  const pairs = new Map<string, [ChainName, Asset]>();
  for (const h of holdings)
    for (const a of [...h.tokens.map((t) => t.asset), ...h.positions.map((p) => p.asset)]) pairs.set(priceKey(h.chain, a), [h.chain, a]);
  const prices = new Map<string, number>();
  await Promise.all([...pairs].map(async ([k, [chain, asset]]) => prices.set(k, await deps.chains.priceUsd(asset, chain))));

  let totalMicro = 0;
  const entry = (chain: ChainName, asset: Asset, token: string | undefined, units: bigint): TokenBalanceView => {
    const micro = Math.round(Number(fromUnits(units, asset)) * (prices.get(priceKey(chain, asset)) ?? 0) * MICRO);
    totalMicro += micro;
    return {
      asset,
      token: token ?? null,
      balance: units.toString(),
      balanceFormatted: fromUnits(units, asset),
      decimals: ASSET_DECIMALS[asset],
      valueUsd: micro / MICRO,
    };
  };
  const chains = wallet.chains.map((chain) => {
    const h = byChain.get(chain);
    return {
      chain,
      tokens: (h?.tokens ?? []).map((t) => entry(chain, t.asset, t.token, t.balance)),
      positions: (h?.positions ?? []).map((p): PositionView => {
        const earnings = positionEarnings(books, { chain, protocol: p.protocol, asset: p.asset, amount: p.amount, index: p.index });
        const view: PositionView = {
          protocol: p.protocol,
          ...entry(chain, p.asset, p.token, p.amount),
          principal: earnings && fromUnits(earnings.principal, p.asset),
          earned: earnings && fromUnits(earnings.earned, p.asset),
        };
        if (earnings?.external !== undefined) view.external = fromUnits(earnings.external, p.asset);
        return view;
      }),
    };
  });
  return { walletId: wallet.id, address: wallet.address, chains, totalValueUsd: totalMicro / MICRO };
}
