import type Router from '@koa/router';
import type { AppDeps } from '../../app/deps';
import type { RestState } from '../context';
import { walletRoutes } from './wallets';
import { chainRoutes } from './chainReads';
import { intentRoutes } from './intents';
import { intentCancelRoutes } from './intentCancel';
import { auditRoutes } from './audit';
import { policyRoutes } from './policies';
import { usageRoutes } from './usage';
import { webhookRoutes } from './webhooks';
import { yieldHistoryRoutes } from './yieldHistory';
import { standingIntentRoutes } from './standingIntents';

/** Every `/v1` router, registered in this one place (the OpenAPI conformance test reads the routes they serve). */
export function v1Routers(deps: AppDeps): Router<RestState>[] {
  return [
    walletRoutes(deps),
    chainRoutes(deps),
    intentRoutes(deps),
    intentCancelRoutes(deps),
    auditRoutes(deps),
    policyRoutes(deps),
    usageRoutes(deps),
    webhookRoutes(deps),
    yieldHistoryRoutes(deps),
    standingIntentRoutes(deps),
  ];
}
