import { builder } from '../builder';
import { AssetEnum, ChainEnum, LendingProtocolEnum } from './enums';
import type { LendingProtocol } from '../../domain/chains';
import type { BalanceReport, PositionView, TokenBalanceView } from '../../app/balances/getBalances';
import { getBalances } from '../../app/balances/getBalances';
import { once, requirePrincipal } from '../resolverHelpers';

type ChainBalances = BalanceReport['chains'][number];

const TokenBalanceRef = builder.objectRef<TokenBalanceView>('TokenBalance').implement({
  description: 'An amount of one asset held on one chain.',
  fields: (t) => ({
    asset: t.field({ type: AssetEnum, description: 'The asset held (native ETH included).', resolve: (b) => b.asset }),
    token: t.exposeString('token', { nullable: true, description: "The token's contract on the chain; null for native ETH. USDC is always Circle's USDC." }),
    balance: t.exposeString('balance', { description: 'The amount in smallest units (integer string, exact).' }),
    balanceFormatted: t.exposeString('balanceFormatted', { description: 'The amount in token units (decimal string, exact).' }),
    decimals: t.exposeInt('decimals', { description: "The asset's decimals (USDC and USDT 6, DAI, WETH and ETH 18)." }),
    valueUsd: t.exposeFloat('valueUsd', { description: 'USD value at the chain price feed.' }),
  }),
});

const PositionRef = builder.objectRef<PositionView>('LendingPosition').implement({
  description: 'Funds supplied to a lending protocol, interest included.',
  fields: (t) => ({
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol holding the funds.', resolve: (p) => p.protocol as LendingProtocol }),
    asset: t.field({ type: AssetEnum, description: 'The asset supplied.', resolve: (b) => b.asset }),
    token: t.exposeString('token', { nullable: true, description: "The contract of the token supplied (USDC is always Circle's USDC)." }),
    balance: t.exposeString('balance', { description: 'The position in smallest units (integer string, exact).' }),
    balanceFormatted: t.exposeString('balanceFormatted', { description: 'The position in token units (decimal string, exact).' }),
    decimals: t.exposeInt('decimals', { description: "The asset's decimals." }),
    valueUsd: t.exposeFloat('valueUsd', { description: 'USD value at the chain price feed.' }),
    principal: t.exposeString('principal', {
      nullable: true,
      description:
        'What the wallet supplied to this position through the service, net of what it took back (interest taken first), in token units (decimal string, exact); null when the service never supplied to it (funds supplied outside the service are not guessed).',
    }),
    earned: t.exposeString('earned', {
      nullable: true,
      description:
        "Interest the service's supplies to the position accrued (the protocol's index growth), interest a rebalance carried here included, in token units (decimal string, exact); null with principal.",
    }),
    external: t.string({
      nullable: true,
      description:
        "What others supplied to the position on the wallet's behalf (Aave supply onBehalfOf, Comet supplyTo): not interest, in token units (decimal string, exact); null when the position's ledger has no index (earned is then balance − principal, never below 0).",
      resolve: (p) => p.external ?? null,
    }),
  }),
});

const ChainBalancesRef = builder.objectRef<ChainBalances>('ChainBalances').implement({
  description: "A wallet's holdings on one chain.",
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (c) => c.chain }),
    tokens: t.field({ type: [TokenBalanceRef], description: 'Tokens held (empty when none).', resolve: (c) => c.tokens }),
    positions: t.field({ type: [PositionRef], description: 'Lending positions (supplied, with interest; empty when none).', resolve: (c) => c.positions }),
  }),
});

const BalanceReportRef = builder.objectRef<BalanceReport>('BalanceReport').implement({
  description: 'Balances and lending positions of a wallet on each of its chains (same resource as GET /v1/balances/:walletId).',
  fields: (t) => ({
    walletId: t.exposeID('walletId', { description: 'The wallet reported on.' }),
    address: t.exposeString('address', { description: "The wallet's address." }),
    chains: t.field({ type: [ChainBalancesRef], description: 'Every chain of the wallet, in the wallet order.', resolve: (r) => r.chains }),
    totalValueUsd: t.exposeFloat('totalValueUsd', { description: 'Tokens plus lending positions on every chain, in USD.' }),
  }),
});

builder.queryField('balances', (t) =>
  t.field({
    type: BalanceReportRef,
    nullable: true,
    description:
      "Balances on every chain of the wallet (same as GET /v1/balances/:walletId); null with its error when the wallet is not the caller's (WALLET_NOT_FOUND) or its chains cannot be read.",
    args: { walletId: t.arg.id({ required: true, description: 'The wallet id (svc_wallet_…).' }) },
    admission: 'getBalances',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const walletId = String(args.walletId);
      return once(ctx, 'balances', walletId, () => getBalances(ctx.deps, principal, walletId));
    },
  }),
);
