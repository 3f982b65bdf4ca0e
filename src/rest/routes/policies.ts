import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { param, queryValue } from '../params';
import { operation } from '../middleware/admission';
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from '../../app/policies/managePolicies';
import { removeWalletPolicy, setWalletPolicy } from '../../app/policies/walletPolicy';

/** Spending policies (`/policies`) and a wallet's own policy (`/wallets/:walletId/policy`). */
export function policyRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.post(
    'createPolicy',
    '/policies',
    operation(deps, 'createPolicy', async (ctx) => {
      ctx.status = 201;
      ctx.body = await createPolicy(deps, ctx.state.principal!, ctx.state.body);
    }),
  );

  router.get(
    'listPolicies',
    '/policies',
    operation(deps, 'listPolicies', async (ctx) => {
      const query = Object.fromEntries(Object.keys(ctx.query).map((k) => [k, queryValue(ctx.query[k])]));
      const page = await listPolicies(deps, ctx.state.principal!, query);
      ctx.body = { policies: page.edges.map((e) => e.node), pageInfo: page.pageInfo };
    }),
  );

  router.get(
    'getPolicy',
    '/policies/:policyId',
    operation(deps, 'getPolicy', async (ctx) => {
      ctx.body = await getPolicy(deps, ctx.state.principal!, param(ctx, 'policyId'));
    }),
  );

  router.put(
    'updatePolicy',
    '/policies/:policyId',
    operation(deps, 'updatePolicy', async (ctx) => {
      ctx.body = await updatePolicy(deps, ctx.state.principal!, param(ctx, 'policyId'), ctx.state.body);
    }),
  );

  router.delete(
    'deletePolicy',
    '/policies/:policyId',
    operation(deps, 'deletePolicy', async (ctx) => {
      await deletePolicy(deps, ctx.state.principal!, param(ctx, 'policyId'));
      ctx.status = 204;
    }),
  );

  router.put(
    'setWalletPolicy',
    '/wallets/:walletId/policy',
    operation(deps, 'setWalletPolicy', async (ctx) => {
      ctx.body = await setWalletPolicy(deps, ctx.state.principal!, param(ctx, 'walletId'), ctx.state.body);
    }),
  );

  router.delete(
    'removeWalletPolicy',
    '/wallets/:walletId/policy',
    operation(deps, 'removeWalletPolicy', async (ctx) => {
      await removeWalletPolicy(deps, ctx.state.principal!, param(ctx, 'walletId'));
      ctx.status = 204;
    }),
  );

  return router;
}
