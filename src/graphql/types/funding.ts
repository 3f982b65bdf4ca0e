import { builder } from '../builder';
import { ChainEnum, TokenAssetEnum, describedValues } from './enums';
import type { FundingReceipt } from '../../app/funding/fundDemoWallet';
import { fundDemoWallet } from '../../app/funding/fundDemoWallet';
import { parseInput } from '../../domain/schemas/parse';
import { fundDemoSchema } from '../../domain/schemas/funding';
import { requirePrincipal } from '../resolverHelpers';

const FundingStatusEnum = builder.enumType('FundingStatus', {
  description: 'Where a demo funding transaction stands when answered.',
  values: describedValues<FundingReceipt['status']>({ submitted: 'Broadcast: the funds land once it is mined.' }),
});

const FundingReceiptRef = builder.objectRef<FundingReceipt>('FundingReceipt').implement({
  description: 'A demo funding transaction, broadcast (same resource as POST /v1/demo/fund answers).',
  fields: (t) => ({
    walletId: t.exposeID('walletId', { description: 'The wallet funded.' }),
    chain: t.field({ type: ChainEnum, description: 'The chain the funds are sent on (ARBITRUM_SEPOLIA).', resolve: (r) => r.chain }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset sent (USDC).', resolve: (r) => r.asset }),
    amount: t.exposeString('amount', { description: 'The amount sent, in token units (decimal string).' }),
    txHash: t.exposeString('txHash', { description: 'The hash of the transfer transaction.' }),
    status: t.field({ type: FundingStatusEnum, description: 'SUBMITTED: broadcast, not yet mined.', resolve: (r) => r.status }),
    warnings: t.exposeStringList('warnings', { nullable: true, description: 'Fields of the request that were ignored; null when none.' }),
  }),
});

builder.mutationField('fundDemoWallet', (t) =>
  t.field({
    type: FundingReceiptRef,
    nullable: true,
    description:
      'Sends 1 test USDC on arbitrum-sepolia to the wallet (same as POST /v1/demo/fund). Null with its error when refused (e.g. FUNDING_LIMIT_EXCEEDED).',
    args: { walletId: t.arg.id({ required: true, description: 'The wallet to fund (svc_wallet_…).' }) },
    admission: 'fundDemo',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const params = parseInput(fundDemoSchema, { walletId: String(args.walletId) });
      return fundDemoWallet(ctx.deps, principal, params);
    },
  }),
);
