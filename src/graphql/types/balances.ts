import { builder } from '../builder';
import { AssetEnum, ChainEnum } from './enums';
import type { BalanceReport, PositionView, TokenBalanceView } from '../../app/balances/getBalances';
import { getBalances } from '../../app/balances/getBalances';
import { runOperation } from '../../app/accounts/admitRequest';
import { once, requirePrincipal } from '../resolverHelpers';

type ChainBalances = BalanceReport['chains'][number];

const TokenBalanceRef = builder.objectRef<TokenBalanceView>('TokenBalance').implement({
  fields: (t) => ({
    asset: t.field({ type: AssetEnum, resolve: (b) => b.asset }),
    balance: t.exposeString('balance', { description: 'Smallest units (integer string)' }),
    balanceFormatted: t.exposeString('balanceFormatted'),
    decimals: t.exposeInt('decimals'),
    valueUsd: t.exposeFloat('valueUsd'),
  }),
});

const PositionRef = builder.objectRef<PositionView>('LendingPosition').implement({
  description: 'Funds supplied to a lending protocol, interest included.',
  fields: (t) => ({
    protocol: t.exposeString('protocol'),
    asset: t.field({ type: AssetEnum, resolve: (b) => b.asset }),
    balance: t.exposeString('balance'),
    balanceFormatted: t.exposeString('balanceFormatted'),
    decimals: t.exposeInt('decimals'),
    valueUsd: t.exposeFloat('valueUsd'),
  }),
});

const ChainBalancesRef = builder.objectRef<ChainBalances>('ChainBalances').implement({
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, resolve: (c) => c.chain }),
    tokens: t.field({ type: [TokenBalanceRef], resolve: (c) => c.tokens }),
    positions: t.field({ type: [PositionRef], resolve: (c) => c.positions }),
  }),
});

const BalanceReportRef = builder.objectRef<BalanceReport>('BalanceReport').implement({
  fields: (t) => ({
    walletId: t.exposeID('walletId'),
    address: t.exposeString('address'),
    chains: t.field({ type: [ChainBalancesRef], resolve: (r) => r.chains }),
    totalValueUsd: t.exposeFloat('totalValueUsd', { description: 'Tokens plus lending positions on every chain' }),
  }),
});

builder.queryField('balances', (t) =>
  t.field({
    type: BalanceReportRef,
    description: 'Balances on every chain of the wallet (same as GET /v1/balances/:walletId).',
    args: { walletId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const walletId = String(args.walletId);
      return runOperation(ctx.deps, principal, 'getBalances', () => once(ctx, 'balances', walletId, () => getBalances(ctx.deps, principal, walletId)), ctx.charge);
    },
  }),
);
