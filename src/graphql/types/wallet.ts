import { builder } from '../builder';
import { ChainEnum, ChainTypeEnum } from './enums';
import type { WalletView } from '../../app/wallets/walletView';
import { toWalletView } from '../../app/wallets/walletView';
import { createWallet } from '../../app/wallets/createWallet';
import { getWalletById, getWalletByUserId } from '../../app/wallets/getWallet';
import { withIdempotency } from '../../app/idempotency';
import { parseInput } from '../../domain/schemas/parse';
import { createWalletSchema } from '../../domain/schemas/wallet';
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH } from '../../domain/schemas/metadata';
import type { ChainName } from '../../domain/chains';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';
import { NodeRef } from './node';

/** The argument validated as a field, so a bad one is named `userId` in details.issues (as in REST). */
const userIdArg = createWalletSchema.pick({ userId: true });

export const WalletRef = builder.objectRef<WalletView>('Wallet').implement({
  description: 'A non-custodial wallet of one application user; one address on every EVM chain (same resource as /v1/wallets).',
  interfaces: [NodeRef],
  fields: (t) => ({
    userId: t.exposeString('userId', { description: "Your application's id for the user (unique within your account)." }),
    address: t.exposeString('address', { description: 'The public address: 0x… (checksummed) for ethereum, base58 T… for tron.' }),
    chainType: t.field({ type: ChainTypeEnum, description: 'The family of chains the key belongs to.', resolve: (w) => w.chainType }),
    chains: t.field({
      type: [ChainEnum],
      description: 'The chains the wallet acts on (the plan decides: test networks on free; none yet for tron).',
      resolve: (w) => w.chains as ChainName[],
    }),
    email: t.exposeString('email', { nullable: true, description: 'The e-mail given at creation; null when none.' }),
    metadata: t.expose('metadata', { type: 'JSON', description: 'The JSON object given at creation (`{}` when none).' }),
    policyId: t.exposeID('policyId', {
      nullable: true,
      description: "The wallet's own spending policy; null when none (its account policy, if any, governs it).",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the wallet was created.' }),
  }),
});

const CreateWalletInput = builder.inputType('CreateWalletInput', {
  description: 'A new wallet (the body of POST /v1/wallets).',
  fields: (t) => ({
    userId: t.string({
      required: true,
      description: "Your application's id for the user: 1-128 characters of A-Z a-z 0-9 . _ : @ -, unique within your account.",
    }),
    chainType: t.field({ type: ChainTypeEnum, description: 'ETHEREUM (default) or TRON.' }),
    email: t.string({ description: 'An e-mail address to keep with the wallet (shown to your account only).' }),
    metadata: t.field({
      type: 'JSON',
      description: `A JSON object to keep with the wallet, shown to your account only: at most ${METADATA_MAX_BYTES} bytes serialised, nesting at most ${METADATA_MAX_DEPTH} levels, no key that starts with "$" or contains ".".`,
    }),
    policyId: t.id({ description: 'A wallet-scope spending policy of your account to govern the wallet.' }),
  }),
});

builder.queryField('wallet', (t) =>
  t.field({
    type: WalletRef,
    nullable: true,
    description:
      'The wallet of an application user (same as GET /v1/wallets/:userId); null with a WALLET_NOT_FOUND error when your account has none for that user.',
    args: { userId: t.arg.string({ required: true, description: "Your application's id for the user, as given at creation." }) },
    admission: 'getWallet',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return toWalletView(await getWalletByUserId(ctx.deps, principal, parseInput(userIdArg, { userId: args.userId }).userId));
    },
  }),
);

builder.queryField('walletById', (t) =>
  t.field({
    type: WalletRef,
    nullable: true,
    description:
      "A wallet by its id (svc_wallet_…), within the caller's account; null with a WALLET_NOT_FOUND error when there is none (another account's answers the same).",
    args: { id: t.arg.id({ required: true, description: 'The wallet id (svc_wallet_…).' }) },
    admission: 'getWallet',
    resolve: async (_root, args, ctx) => toWalletView(await getWalletById(ctx.deps, requirePrincipal(ctx), String(args.id))),
  }),
);

builder.mutationField('createWallet', (t) =>
  t.field({
    type: WalletRef,
    nullable: true,
    description:
      'Creates a wallet (same as POST /v1/wallets). Honours the Idempotency-Key HTTP header. Null with its error when refused (e.g. WALLET_ALREADY_EXISTS).',
    args: { input: t.arg({ type: CreateWalletInput, required: true, description: 'The wallet to create.' }) },
    admission: 'createWallet',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls(args.input);
      const r = await withIdempotency(ctx.deps, { scope: `${principal.account.id}:createWallet`, key: ctx.idempotencyKey, request: body }, async () => ({
        status: 201,
        body: toWalletView(await createWallet(ctx.deps, principal, parseInput(createWalletSchema, body))),
      }));
      return r.body;
    },
  }),
);
