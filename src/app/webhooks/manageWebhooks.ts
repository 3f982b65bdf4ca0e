import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { newId } from '../../domain/ids';
import { parseInput } from '../../domain/schemas/parse';
import { createWebhookSchema, listDeliveriesSchema } from '../../domain/schemas/webhooks';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_TEST_EVENT, type WebhookDelivery, type WebhookEndpoint } from '../../domain/webhooks';
import { invalidRequest, serviceUnavailable } from '../../domain/errors/request';
import { webhookNotFound } from '../../domain/errors/webhooks';
import { decodeCursor, encodeCursor } from '../intents/listIntents';
import { EgressRefused, REFUSED_DESTINATION, resolveAllowed } from './egress';
import { generateSecret } from './secrets';
import { toDeliveryView, toWebhookView, type CreatedWebhookView, type DeliveryView, type WebhookView } from './webhookView';
import type { WebhookServices } from './dispatcher';
import { actorOf, recordAudit } from '../audit/recordAudit';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'webhooks' | 'logger'>;

function services(deps: Pick<AppDeps, 'webhooks'>): WebhookServices {
  if (!deps.webhooks) throw serviceUnavailable('Webhooks are not running on this instance');
  return deps.webhooks;
}

/** The caller's endpoint, or WEBHOOK_NOT_FOUND (another account's answers the same as none). */
export async function ownWebhook(deps: Pick<AppDeps, 'store'>, principal: Principal, webhookId: string): Promise<WebhookEndpoint> {
  const e = await deps.store.webhooks.getEndpoint(webhookId);
  if (!e || e.accountId !== principal.account.id) throw webhookNotFound(webhookId);
  return e;
}

/**
 * POST /webhooks: registers an endpoint and answers its signing secret, the
 * only time it is shown. The URL must be http(s) and (outside a sandbox's
 * loopback) resolve to public addresses only: 400 naming `url` otherwise,
 * with the same words whatever the rule (REFUSED_DESTINATION). A name that
 * does not resolve yet is accepted; every delivery checks again.
 */
export async function createWebhookEndpoint(deps: Deps, principal: Principal, body: unknown): Promise<CreatedWebhookView> {
  const svc = services(deps);
  const input = parseInput(createWebhookSchema, body);
  const url = new URL(input.url);
  try {
    await resolveAllowed(url, svc.egress);
  } catch (e) {
    if (e instanceof EgressRefused) {
      // Which rule and which address stay in the server log: the answer would tell what a name resolves to inside the network.
      svc.egress.explain?.({ host: url.host, reason: e.message }, 'webhook endpoint refused');
      throw invalidRequest([{ path: 'url', message: `url ${REFUSED_DESTINATION}` }]);
    }
    // not resolvable now: accepted, checked again before every attempt
  }
  if ((await deps.store.webhooks.countEndpoints(principal.account.id)) >= MAX_WEBHOOK_ENDPOINTS) {
    throw invalidRequest([{ path: 'url', message: `an account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: delete one first` }]);
  }
  const id = newId('webhook');
  const secret = generateSecret();
  const sealed = svc.secrets.seal(id, secret);
  const endpoint: WebhookEndpoint = {
    id,
    accountId: principal.account.id,
    url: input.url,
    events: input.events,
    ...(input.description ? { description: input.description } : {}),
    secretCiphertext: sealed.ciphertext,
    secretKeyVersion: sealed.keyVersion,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.store.webhooks.insertEndpoint(endpoint);
  // An endpoint receives every update of the account's intents: who added one, and where it sends, is on record (never its secret).
  await recordAudit(deps, {
    accountId: endpoint.accountId,
    type: 'webhook.created',
    actor: actorOf(principal),
    subject: { webhookId: id },
    details: { host: url.host, events: endpoint.events },
  });
  return { ...toWebhookView(endpoint), secret };
}

export async function listWebhookEndpoints(deps: Pick<AppDeps, 'store'>, principal: Principal): Promise<WebhookView[]> {
  return (await deps.store.webhooks.listEndpoints(principal.account.id)).map(toWebhookView);
}

export async function getWebhookEndpoint(deps: Pick<AppDeps, 'store'>, principal: Principal, webhookId: string): Promise<WebhookView> {
  return toWebhookView(await ownWebhook(deps, principal, webhookId));
}

/** DELETE /webhooks/:id: the endpoint and every delivery still owed to it are gone (recorded as `webhook.deleted`). */
export async function deleteWebhookEndpoint(deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>, principal: Principal, webhookId: string): Promise<void> {
  const e = await ownWebhook(deps, principal, webhookId);
  // A concurrent delete that got there first records it; this one has nothing left to record.
  if (!(await deps.store.webhooks.deleteEndpoint(e.id))) return;
  await recordAudit(deps, {
    accountId: e.accountId,
    type: 'webhook.deleted',
    actor: actorOf(principal),
    subject: { webhookId: e.id },
    details: { host: hostOf(e.url) },
  });
}

/** The URL's host (and port), what the audit log names of an endpoint: its path and query may carry the receiver's own token. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** The endpoint's delivery log, newest first, by cursor. */
export async function listWebhookDeliveries(deps: Pick<AppDeps, 'store'>, principal: Principal, webhookId: string, query: Record<string, unknown>) {
  const q = parseInput(listDeliveriesSchema, query);
  const e = await ownWebhook(deps, principal, webhookId);
  const after = q.after === undefined ? undefined : decodeCursor(q.after);
  const items = await deps.store.webhooks.listDeliveries(e.id, { limit: q.first + 1, after });
  const edges = items.slice(0, q.first).map((d) => ({ cursor: encodeCursor(d), node: toDeliveryView(d) }));
  return { edges, pageInfo: { hasNextPage: items.length > q.first, endCursor: edges[edges.length - 1]?.cursor ?? null } };
}

/** POST /webhooks/:id/test: a `webhook.test` delivery, due at once, signed and retried like any other. */
export async function sendTestWebhook(deps: Deps, principal: Principal, webhookId: string): Promise<DeliveryView> {
  const svc = services(deps);
  const e = await ownWebhook(deps, principal, webhookId);
  const now = deps.clock.now().toISOString();
  const id = `msg_${randomBytes(16).toString('hex')}`;
  const delivery: WebhookDelivery = {
    id,
    endpointId: e.id,
    accountId: e.accountId,
    eventType: WEBHOOK_TEST_EVENT,
    body: JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: now,
      data: { webhookId: e.id, message: 'A test event: your endpoint receives and verifies webhooks.' },
    }),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lastStatusCode: null,
    lastError: null,
    createdAt: now,
    deliveredAt: null,
    claimedUntil: null,
    claimedBy: null,
  };
  await deps.store.webhooks.insertDelivery(delivery);
  svc.kick();
  return toDeliveryView(delivery);
}
