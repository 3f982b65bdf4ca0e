import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { param } from '../params';
import { operation } from '../middleware/admission';
import { parseInput } from '../../domain/schemas/parse';
import { createWalletSchema } from '../../domain/schemas/wallet';
import { createWallet } from '../../app/wallets/createWallet';
import { getWalletByUserId } from '../../app/wallets/getWallet';
import { toPaidWalletView, toWalletView } from '../../app/wallets/walletView';
import { withIdempotency } from '../../app/idempotency';

/** The path parameter validated as a field, so a bad one is named `userId` in details.issues. */
const userIdParam = createWalletSchema.pick({ userId: true });

/** POST /wallets and GET /wallets/:userId (the API's "Endpoints"). */
export function walletRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.post(
    'createWallet',
    '/wallets',
    operation(deps, 'createWallet', async (ctx) => {
      const principal = ctx.state.principal!;
      const result = await withIdempotency(
        deps,
        { scope: `${principal.account.id}:createWallet`, key: ctx.get('Idempotency-Key') || undefined, request: ctx.state.body },
        async () => {
          const params = parseInput(createWalletSchema, ctx.state.body);
          const wallet = await createWallet(deps, principal, params);
          return { status: 201, body: toWalletView(wallet) };
        },
      );
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
      ctx.status = result.status;
      ctx.body = result.body;
    }),
  );

  router.get(
    'getWallet',
    '/wallets/:userId',
    operation(deps, 'getWallet', async (ctx) => {
      const { userId } = parseInput(userIdParam, { userId: param(ctx, 'userId') });
      const principal = ctx.state.principal!;
      const wallet = await getWalletByUserId(deps, principal, userId);
      ctx.body = principal.via === 'payment' ? toPaidWalletView(wallet) : toWalletView(wallet);
    }),
  );

  return router;
}
