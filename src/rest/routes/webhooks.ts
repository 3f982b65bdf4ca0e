import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { param, queryValue } from '../params';
import { operation } from '../middleware/admission';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  sendTestWebhook,
} from '../../app/webhooks/manageWebhooks';

/** Webhook endpoints (`/webhooks`), their delivery logs and test events. */
export function webhookRoutes(deps: AppDeps): Router<RestState> {
  const router = createRouter<RestState>();

  router.post(
    'createWebhook',
    '/webhooks',
    operation(deps, 'createWebhook', async (ctx) => {
      ctx.status = 201;
      ctx.body = await createWebhookEndpoint(deps, ctx.state.principal!, ctx.state.body);
    }),
  );

  router.get(
    'listWebhooks',
    '/webhooks',
    operation(deps, 'listWebhooks', async (ctx) => {
      ctx.body = { webhooks: await listWebhookEndpoints(deps, ctx.state.principal!) };
    }),
  );

  router.get(
    'getWebhook',
    '/webhooks/:webhookId',
    operation(deps, 'getWebhook', async (ctx) => {
      ctx.body = await getWebhookEndpoint(deps, ctx.state.principal!, param(ctx, 'webhookId'));
    }),
  );

  router.delete(
    'deleteWebhook',
    '/webhooks/:webhookId',
    operation(deps, 'deleteWebhook', async (ctx) => {
      await deleteWebhookEndpoint(deps, ctx.state.principal!, param(ctx, 'webhookId'));
      ctx.status = 204;
    }),
  );

  router.get(
    'listWebhookDeliveries',
    '/webhooks/:webhookId/deliveries',
    operation(deps, 'listWebhookDeliveries', async (ctx) => {
      const query = Object.fromEntries(Object.keys(ctx.query).map((k) => [k, queryValue(ctx.query[k])]));
      const page = await listWebhookDeliveries(deps, ctx.state.principal!, param(ctx, 'webhookId'), query);
      ctx.body = { deliveries: page.edges.map((e) => e.node), pageInfo: page.pageInfo };
    }),
  );

  router.post(
    'sendTestWebhook',
    '/webhooks/:webhookId/test',
    operation(deps, 'sendTestWebhook', async (ctx) => {
      ctx.status = 202;
      ctx.body = await sendTestWebhook(deps, ctx.state.principal!, param(ctx, 'webhookId'));
    }),
  );

  return router;
}
