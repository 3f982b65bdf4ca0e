import { builder } from '../builder';
import { AssetEnum, ChainEnum } from './enums';
import type { YieldRate, YieldReport } from '../../app/yields/getYields';
import { getYields } from '../../app/yields/getYields';
import { runOperation } from '../../app/accounts/admitRequest';
import { parseInput } from '../../domain/schemas/parse';
import { yieldsQuerySchema } from '../../domain/schemas/yields';
import type { ChainName, TokenAsset } from '../../domain/chains';
import { once, requirePrincipal, withoutNulls } from '../resolverHelpers';

const YieldRateRef = builder.objectRef<YieldRate>('YieldRate').implement({
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, resolve: (r) => r.chain }),
    protocol: t.exposeString('protocol'),
    asset: t.field({ type: AssetEnum, resolve: (r) => r.asset }),
    apy: t.exposeFloat('apy', { description: 'Supply APY in percent' }),
  }),
});

const BestYieldRef = builder.objectRef<NonNullable<YieldReport['best']>>('BestYield').implement({
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, resolve: (r) => r.chain }),
    protocol: t.exposeString('protocol'),
    asset: t.field({ type: AssetEnum, resolve: (r) => r.asset }),
    apy: t.exposeFloat('apy'),
    reasoning: t.exposeString('reasoning'),
  }),
});

const YieldReportRef = builder.objectRef<YieldReport>('YieldReport').implement({
  fields: (t) => ({
    rates: t.field({ type: [YieldRateRef], resolve: (r) => r.rates }),
    best: t.field({ type: BestYieldRef, nullable: true, resolve: (r) => r.best }),
  }),
});

builder.queryField('yields', (t) =>
  t.field({
    type: YieldReportRef,
    description: 'Lending APYs per chain, protocol and asset, and the best market (same as GET /v1/yields).',
    args: { asset: t.arg({ type: AssetEnum }), chain: t.arg({ type: ChainEnum }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const q = parseInput(yieldsQuerySchema, withoutNulls(args));
      const params = { asset: q.asset as TokenAsset | undefined, chain: q.chain as ChainName | undefined };
      return runOperation(ctx.deps, principal, 'getYields', () => once(ctx, 'yields', params, () => getYields(ctx.deps, principal, params)), ctx.charge);
    },
  }),
);
