import { builder } from '../builder';
import { ChainEnum, ChainTypeEnum } from './enums';
import type { WalletView } from '../../app/wallets/walletView';
import { toWalletView } from '../../app/wallets/walletView';
import { runOperation } from '../../app/accounts/admitRequest';
import { createWallet } from '../../app/wallets/createWallet';
import { getWalletById, getWalletByUserId } from '../../app/wallets/getWallet';
import { withIdempotency } from '../../app/idempotency';
import { parseInput } from '../../domain/schemas/parse';
import { createWalletSchema } from '../../domain/schemas/wallet';
import type { ChainName } from '../../domain/chains';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';

/** The argument validated as a field, so a bad one is named `userId` in details.issues (as in REST). */
const userIdArg = createWalletSchema.pick({ userId: true });

export const WalletRef = builder.objectRef<WalletView>('Wallet').implement({
  description: 'A non-custodial wallet of one application user; one address on every EVM chain.',
  fields: (t) => ({
    id: t.exposeID('id'),
    userId: t.exposeString('userId'),
    address: t.exposeString('address'),
    chainType: t.field({ type: ChainTypeEnum, resolve: (w) => w.chainType }),
    chains: t.field({ type: [ChainEnum], resolve: (w) => w.chains as ChainName[] }),
    email: t.exposeString('email', { nullable: true }),
    metadata: t.expose('metadata', { type: 'JSON' }),
    policyId: t.exposeID('policyId', { nullable: true, description: "The wallet's own spending policy; null when none (its account policy, if any, governs it)." }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreateWalletInput = builder.inputType('CreateWalletInput', {
  fields: (t) => ({
    userId: t.string({ required: true }),
    chainType: t.field({ type: ChainTypeEnum }),
    email: t.string(),
    metadata: t.field({ type: 'JSON' }),
    policyId: t.id({ description: 'A wallet-scope spending policy of your account to govern the wallet.' }),
  }),
});

builder.queryField('wallet', (t) =>
  t.field({
    type: WalletRef,
    description: 'The wallet of an application user (same as GET /v1/wallets/:userId).',
    args: { userId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'getWallet', async () =>
        toWalletView(await getWalletByUserId(ctx.deps, principal, parseInput(userIdArg, { userId: args.userId }).userId)), ctx.charge,
      );
    },
  }),
);

builder.queryField('walletById', (t) =>
  t.field({
    type: WalletRef,
    description: 'A wallet by its id (svc_wallet_…), within the caller\'s account.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'getWallet', async () => toWalletView(await getWalletById(ctx.deps, principal, String(args.id))), ctx.charge);
    },
  }),
);

builder.mutationField('createWallet', (t) =>
  t.field({
    type: WalletRef,
    description: 'Creates a wallet (same as POST /v1/wallets). Honours the Idempotency-Key HTTP header.',
    args: { input: t.arg({ type: CreateWalletInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls(args.input);
      return runOperation(ctx.deps, principal, 'createWallet', async () => {
        const r = await withIdempotency(
          ctx.deps,
          { scope: `${principal.account.id}:createWallet`, key: ctx.idempotencyKey, request: body },
          async () => ({ status: 201, body: toWalletView(await createWallet(ctx.deps, principal, parseInput(createWalletSchema, body))) }),
        );
        return r.body;
      }, ctx.charge);
    },
  }),
);
