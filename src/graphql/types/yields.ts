import { builder } from '../builder';
import { ChainEnum, LendingProtocolEnum, OptimizeGoalEnum, TokenAssetEnum } from './enums';
import type { NetReturnRate, YieldRate, YieldReport } from '../../app/yields/getYields';
import { getYields } from '../../app/yields/getYields';
import { parseInput } from '../../domain/schemas/parse';
import { yieldsQuerySchema } from '../../domain/schemas/yields';
import { yieldsParams } from '../../app/yields/yieldsParams';
import type { LendingProtocol } from '../../domain/chains';
import { once, requirePrincipal, withoutNulls } from '../resolverHelpers';

const YieldRateRef = builder.objectRef<YieldRate>('YieldRate').implement({
  description: 'The supply rate of one market: an asset on a lending protocol on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (r) => r.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (r) => r.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (r) => r.asset }),
    token: t.exposeString('token', {
      description: "The token the market lends, by its contract: a market is (chain, protocol, token), and USDC is always Circle's USDC.",
    }),
    apy: t.exposeFloat('apy', { description: 'Supply APY in percent, 2 decimals.' }),
    sandboxOnly: t.exposeBoolean('sandboxOnly', {
      description: 'A market the sandbox adds where the real test network has none; always false on real networks.',
    }),
  }),
});

const BestYieldRef = builder.objectRef<NonNullable<YieldReport['best']>>('BestYield').implement({
  description: 'The market with the highest supply APY for the asset asked for, and why.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (r) => r.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (r) => r.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (r) => r.asset }),
    token: t.exposeString('token', {
      description: "The token the market lends, by its contract: a market is (chain, protocol, token), and USDC is always Circle's USDC.",
    }),
    apy: t.exposeFloat('apy', { description: 'Supply APY in percent, 2 decimals.' }),
    sandboxOnly: t.exposeBoolean('sandboxOnly', {
      description: 'A market the sandbox adds where the real test network has none; always false on real networks.',
    }),
    reasoning: t.exposeString('reasoning', { description: 'Why, naming every market compared.' }),
  }),
});

const NetReturnRateRef = builder.objectRef<NetReturnRate>('NetReturnRate').implement({
  description: 'One market as the net-return ranking sees it, for the wallet and the amount asked.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (r) => r.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (r) => r.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (r) => r.asset }),
    token: t.exposeString('token', {
      description: "The token the market lends, by its contract: a market is (chain, protocol, token), and USDC is always Circle's USDC.",
    }),
    apy: t.exposeFloat('apy', { description: 'Supply APY in percent, 2 decimals.' }),
    sandboxOnly: t.exposeBoolean('sandboxOnly', {
      description: 'A market the sandbox adds where the real test network has none; always false on real networks.',
    }),
    bridges: t.exposeInt('bridges', { description: 'Bridges needed to gather the amount there.' }),
    amount: t.exposeString('amount', { description: 'What would be deposited after route fees, token units.' }),
    earningsUsd: t.exposeFloat('earningsUsd', { description: 'amount × APY × horizonDays / 365, in USD.' }),
    routeFeesUsd: t.exposeFloat('routeFeesUsd', { description: 'Route fees of the bridges, in USD.' }),
    gasUsd: t.exposeFloat('gasUsd', { description: "Typical gas of every step at each chain's gas price and ETH/USD now, in USD." }),
    netReturnUsd: t.exposeFloat('netReturnUsd', { description: 'earningsUsd − routeFeesUsd − gasUsd.' }),
  }),
});

const NetReturnRankingRef = builder.objectRef<NonNullable<YieldReport['netReturn']>>('NetReturnRanking').implement({
  description: "Markets ranked by net return for an amount lent from a wallet's funds over a horizon.",
  fields: (t) => ({
    horizonDays: t.exposeInt('horizonDays', { description: 'Days the earnings are counted over.' }),
    amount: t.exposeString('amount', { description: 'The amount ranked for, token units.' }),
    walletId: t.exposeID('walletId', { description: 'The wallet whose funds are lent.' }),
    ranking: t.field({ type: [NetReturnRateRef], description: "Every market the wallet's funds reach, best net return first.", resolve: (r) => r.ranking }),
  }),
});

const YieldReportRef = builder.objectRef<YieldReport>('YieldReport').implement({
  description: 'Lending rates and the best market (same resource as GET /v1/yields).',
  fields: (t) => ({
    rates: t.field({ type: [YieldRateRef], description: 'Every (chain, protocol, asset) market, filtered by the arguments.', resolve: (r) => r.rates }),
    best: t.field({
      type: BestYieldRef,
      nullable: true,
      description: 'The best market for `asset` (USDC when absent); null when none matches the filters.',
      resolve: (r) => r.best,
    }),
    netReturn: t.field({
      type: NetReturnRankingRef,
      nullable: true,
      description: 'With optimize: NET_RETURN only: the ranking `best` was chosen by.',
      resolve: (r) => r.netReturn ?? null,
    }),
  }),
});

builder.queryField('yields', (t) =>
  t.field({
    type: YieldReportRef,
    nullable: true,
    description:
      'Lending APYs per chain, protocol and asset, and the best market (same as GET /v1/yields); null with its error when refused (e.g. PLAN_RESTRICTED) or when no rate can be read.',
    args: {
      asset: t.arg({ type: TokenAssetEnum, description: 'Only this asset; also the asset `best` is picked for (USDC when absent).' }),
      chain: t.arg({ type: ChainEnum, description: 'Only this chain (an upcoming main network: PLAN_RESTRICTED on the free plan, else INVALID_CHAIN).' }),
      optimize: t.arg({
        type: OptimizeGoalEnum,
        description:
          'Opt-in: NET_RETURN picks `best` by what lending `amount` from `walletId` nets over `horizonDays` (earnings less route fees and gas); needs walletId and amount.',
      }),
      walletId: t.arg.id({ description: 'With optimize: the wallet whose funds are lent.' }),
      amount: t.arg.string({ description: 'With optimize: the amount to lend, token units (decimal string, at least 0.01).' }),
      horizonDays: t.arg.int({ description: 'With optimize: the days earnings are counted over, 1-3650 (default 30).' }),
    },
    admission: 'getYields',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const q = parseInput(
        yieldsQuerySchema,
        withoutNulls({
          ...args,
          walletId: args.walletId == null ? null : String(args.walletId),
          horizonDays: args.horizonDays == null ? null : String(args.horizonDays),
        }),
      );
      const params = yieldsParams(q);
      return once(ctx, 'yields', params, () => getYields(ctx.deps, principal, params));
    },
  }),
);
