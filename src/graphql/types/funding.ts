import { builder } from '../builder';
import { AssetEnum, ChainEnum } from './enums';
import type { FundingReceipt } from '../../app/funding/fundDemoWallet';
import { fundDemoWallet } from '../../app/funding/fundDemoWallet';
import { runOperation } from '../../app/accounts/admitRequest';
import { parseInput } from '../../domain/schemas/parse';
import { fundDemoSchema } from '../../domain/schemas/funding';
import { requirePrincipal } from '../resolverHelpers';

const FundingReceiptRef = builder.objectRef<FundingReceipt>('FundingReceipt').implement({
  fields: (t) => ({
    walletId: t.exposeID('walletId'),
    chain: t.field({ type: ChainEnum, resolve: (r) => r.chain }),
    asset: t.field({ type: AssetEnum, resolve: (r) => r.asset }),
    amount: t.exposeString('amount'),
    txHash: t.exposeString('txHash'),
    status: t.exposeString('status'),
    warnings: t.exposeStringList('warnings', { nullable: true }),
  }),
});

builder.mutationField('fundDemoWallet', (t) =>
  t.field({
    type: FundingReceiptRef,
    description: 'Sends 1 test USDC on arbitrum-sepolia to the wallet (same as POST /v1/demo/fund).',
    args: { walletId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const params = parseInput(fundDemoSchema, { walletId: String(args.walletId) });
      return runOperation(ctx.deps, principal, 'fundDemo', () => fundDemoWallet(ctx.deps, principal, params), ctx.charge);
    },
  }),
);
