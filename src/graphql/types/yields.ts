import { builder } from '../builder';
import { ChainEnum, LendingProtocolEnum, TokenAssetEnum } from './enums';
import type { YieldRate, YieldReport } from '../../app/yields/getYields';
import { getYields } from '../../app/yields/getYields';
import { runOperation } from '../../app/accounts/admitRequest';
import { parseInput } from '../../domain/schemas/parse';
import { yieldsQuerySchema } from '../../domain/schemas/yields';
import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';
import { once, requirePrincipal, withoutNulls } from '../resolverHelpers';

const YieldRateRef = builder.objectRef<YieldRate>('YieldRate').implement({
  description: 'The supply rate of one market: an asset on a lending protocol on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (r) => r.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (r) => r.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (r) => r.asset }),
    apy: t.exposeFloat('apy', { description: 'Supply APY in percent, 2 decimals.' }),
  }),
});

const BestYieldRef = builder.objectRef<NonNullable<YieldReport['best']>>('BestYield').implement({
  description: 'The market with the highest supply APY for the asset asked for, and why.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (r) => r.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (r) => r.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (r) => r.asset }),
    apy: t.exposeFloat('apy', { description: 'Supply APY in percent, 2 decimals.' }),
    reasoning: t.exposeString('reasoning', { description: 'Why, naming every market compared.' }),
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
    },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const q = parseInput(yieldsQuerySchema, withoutNulls(args));
      const params = { asset: q.asset as TokenAsset | undefined, chain: q.chain as ChainName | undefined };
      return runOperation(ctx.deps, principal, 'getYields', () => once(ctx, 'yields', params, () => getYields(ctx.deps, principal, params)), ctx.charge);
    },
  }),
);
