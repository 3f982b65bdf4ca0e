import { randomBytes } from 'node:crypto';
import { createWebhookDispatcher, type DeliveryEvent, type WebhookDispatcher, type WebhookDispatcherOptions } from '../../../src/app/webhooks/dispatcher';
import { createSecretBox } from '../../../src/app/webhooks/secrets';
import { createMemoryWebhooks } from '../../../src/store/memory/memoryWebhooks';
import type { WebhookRepo } from '../../../src/ports/store';
import type { WebhookDelivery, WebhookEndpoint } from '../../../src/domain/webhooks';
import { startReceiver, type Receiver } from '../../helpers/webhookReceiver';

/**
 * The delivery worker on the memory store, sending to real HTTP receivers on
 * 127.0.0.1, with a clock the test moves: which delivery goes when is decided
 * by turns and circuits, observed through the worker's events and the
 * receivers' order of arrival, never by elapsed time.
 */

const T = Date.UTC(2026, 5, 1, 12);
const secrets = createSecretBox(randomBytes(32));
const hex = (n: number) => randomBytes(n).toString('hex');

function endpointFor(url: string): WebhookEndpoint {
  const id = `svc_webhook_${hex(16)}`;
  const sealed = secrets.seal(id, `whsec_${randomBytes(24).toString('base64')}`);
  return {
    id,
    accountId: `acct_${hex(8)}`,
    url,
    events: ['intent.completed'],
    secretCiphertext: sealed.ciphertext,
    secretKeyVersion: sealed.keyVersion,
    createdAt: new Date(T - 60_000).toISOString(),
  };
}

function deliveryTo(e: WebhookEndpoint, dueMs: number): WebhookDelivery {
  const at = new Date(dueMs).toISOString();
  return {
    id: `msg_${hex(16)}`,
    endpointId: e.id,
    accountId: e.accountId,
    eventType: 'webhook.test',
    body: JSON.stringify({ type: 'webhook.test', timestamp: at, data: {} }),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at,
    lastStatusCode: null,
    lastError: null,
    createdAt: at,
    deliveredAt: null,
    claimedUntil: null,
    claimedBy: null,
  };
}

/** The worker's events as they come, and a way to await the first moment a condition over them holds. */
function eventLog() {
  const events: DeliveryEvent[] = [];
  const waiters: { done: (es: DeliveryEvent[]) => boolean; resolve: () => void }[] = [];
  return {
    events,
    push(e: DeliveryEvent) {
      events.push(e);
      for (const w of waiters.filter((w) => w.done(events))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    until: (done: (es: DeliveryEvent[]) => boolean) => (done(events) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ done, resolve }))),
  };
}

let webhooks: WebhookRepo;
let nowMs = T;
let dispatcher: WebhookDispatcher | undefined;
const receivers: Receiver[] = [];

function start(over: Partial<WebhookDispatcherOptions>): WebhookDispatcher {
  dispatcher = createWebhookDispatcher({
    store: { webhooks },
    clock: { now: () => new Date(nowMs) },
    secrets,
    egress: { allowLoopback: true },
    // retries a minute apart: a failed delivery is not due again while the test's clock stands still
    retry: { baseMs: 60_000 },
    logger: { warn: () => undefined },
    pollMs: 3_600_000,
    ...over,
  });
  dispatcher.start();
  return dispatcher;
}

beforeEach(() => {
  webhooks = createMemoryWebhooks();
  nowMs = T;
});
afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

test('behavior: accounts take turns: with one slot, B’s delivery goes second although A’s five were all due before it', async () => {
  const log: Receiver['log'] = [];
  const a = await startReceiver('a', () => 204, log);
  const b = await startReceiver('b', () => 204, log);
  receivers.push(a, b);
  const ea = endpointFor(a.url);
  const eb = endpointFor(b.url);
  await webhooks.insertEndpoint(ea);
  await webhooks.insertEndpoint(eb);
  for (let i = 5; i >= 1; i--) await webhooks.insertDelivery(deliveryTo(ea, T - i * 1000));
  await webhooks.insertDelivery(deliveryTo(eb, T));
  start({ concurrency: 1 });
  await Promise.all([a.arrived(5), b.arrived(1)]);
  // before: oldest first across every account, B's came sixth
  expect(log.map((l) => l.at)).toEqual(['a', 'b', 'a', 'a', 'a', 'a']);
});

test('behavior: after 3 failures in a row the circuit opens: the endpoint’s other deliveries are held (not sent, no attempt counted) until the cool-down ends; a good probe closes it and they go', async () => {
  let answer = 500;
  const hook = await startReceiver('hook', () => answer);
  receivers.push(hook);
  const e = endpointFor(hook.url);
  await webhooks.insertEndpoint(e);
  const ds = [6, 5, 4, 3, 2, 1].map((i) => deliveryTo(e, T - i * 1000));
  for (const d of ds) await webhooks.insertDelivery(d);
  const log = eventLog();
  const w = start({ perEndpoint: 1, breaker: { threshold: 3, cooldownMs: 10_000 }, onEvent: (ev) => log.push(ev) });

  await log.until((es) => es.filter((x) => x.type === 'held').length === 3);
  expect(hook.received).toHaveLength(3);
  expect(log.events.filter((x) => x.type === 'circuit')).toEqual([{ type: 'circuit', endpointId: e.id, state: 'open' }]);
  const heldIds = log.events.flatMap((x) => (x.type === 'held' ? [x.deliveryId] : []));
  // the three due last were held, each until the cool-down ends, with no attempt counted
  expect(new Set(heldIds)).toEqual(new Set(ds.slice(3).map((d) => d.id)));
  for (const id of heldIds)
    expect(await webhooks.getDelivery(id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(T + 10_000).toISOString(),
      claimedBy: null,
    });
  for (const d of ds.slice(0, 3)) expect(await webhooks.getDelivery(d.id)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });

  // the cool-down ends: one probe; it succeeds, the circuit closes, the held ones are sent
  answer = 204;
  nowMs = T + 10_000;
  w.kick();
  await log.until((es) => es.filter((x) => x.type === 'attempted' && x.ok).length === 3);
  const circuit = log.events.filter((x) => x.type === 'circuit').map((x) => (x as { state: string }).state);
  expect(circuit).toEqual(['open', 'half-open', 'closed']);
  // the probe's success closed the circuit before any other delivery was sent
  const afterHalfOpen = log.events.slice(log.events.findIndex((x) => x.type === 'circuit' && x.state === 'half-open') + 1);
  expect(afterHalfOpen.map((x) => x.type)).toEqual(['circuit', 'attempted', 'attempted', 'attempted']);
  expect(hook.received).toHaveLength(6);
  for (const id of heldIds) expect(await webhooks.getDelivery(id)).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204 });
});

test('behavior: while 5 accounts × 2 endpoints that never answer × 4 events each are in flight, one more account’s delivery is sent before any of theirs times out (12 of the 16 slots held, the rest kept for newcomers)', async () => {
  const log: Receiver['log'] = [];
  const stuck: Receiver[] = [];
  for (let a = 0; a < 5; a++) {
    const accountId = `acct_${hex(8)}`;
    for (let e = 0; e < 2; e++) {
      const r = await startReceiver(`hang-${a}-${e}`, () => null, log);
      stuck.push(r);
      const endpoint = { ...endpointFor(r.url), accountId };
      await webhooks.insertEndpoint(endpoint);
      for (let i = 0; i < 4; i++) await webhooks.insertDelivery(deliveryTo(endpoint, T - 60_000 + i));
    }
  }
  const b = await startReceiver('b', () => 204, log);
  receivers.push(...stuck, b);
  // a short attempt timeout: before, B's delivery waited for the first of these to end
  const worker = start({ timeoutMs: 3_000 });
  await new Promise<void>((resolve) => {
    const check = () => (log.filter((l) => l.event.type === 'received').length >= 12 ? resolve() : setTimeout(check, 10));
    check();
  });
  const eb = endpointFor(b.url);
  await webhooks.insertEndpoint(eb);
  await webhooks.insertDelivery(deliveryTo(eb, T));
  worker.kick();
  await b.arrived(1);
  const before = log.slice(
    0,
    log.findIndex((l) => l.at === 'b'),
  );
  expect(before.filter((l) => l.event.type === 'closed')).toEqual([]);
  expect(before.filter((l) => l.event.type === 'received')).toHaveLength(12);
});
