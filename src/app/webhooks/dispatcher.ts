import { createHash, randomBytes } from 'node:crypto';
import type { Intent } from '../../domain/intent';
import type { WebhookRepo } from '../../ports/store';
import { nextAttemptAt, RETRY_WINDOW_STEPS, WEBHOOK_TIMEOUT_MS, type RetrySchedule, type WebhookDelivery, type WebhookEventType } from '../../domain/webhooks';
import type { DeliveryOutcome } from '../../ports/store';
import { toIntentView } from '../intents/intentView';
import type { EgressPolicy } from './egress';
import { signatureOf, type SecretBox } from './secrets';
import { sendWebhook, type SendResult } from './send';
import { createCircuitBreaker, type CircuitBreakerOptions, type CircuitState } from './circuitBreaker';
import { createDeliverySlots } from './deliverySlots';

/** What the use-cases need of the webhook machinery. */
export interface WebhookServices {
  secrets: SecretBox;
  egress: EgressPolicy;
  /** Wakes the worker: a delivery is due now. */
  kick(): void;
}

export interface WebhookDispatcher extends WebhookServices {
  /** The engine's transition hook: records the deliveries an intent's new status owes. Never throws. */
  onTransition(intent: Intent): void;
  /** Starts the worker (polls for due deliveries, this instance's and others'). */
  start(): void;
  /** Stops the worker: attempts in flight are aborted and their leases given back; recording in flight finishes. */
  stop(): Promise<void>;
}

export interface WebhookDispatcherOptions {
  store: { webhooks: WebhookRepo };
  clock: { now(): Date };
  secrets: SecretBox;
  egress: EgressPolicy;
  retry: RetrySchedule;
  logger: { warn(obj: object, msg: string): void };
  /** How often the worker looks for due deliveries; default the smaller of 1 s and the retry base. */
  pollMs?: number;
  /** Attempts in flight at once, all accounts together; default 16. */
  concurrency?: number;
  /** Attempts in flight for one account; default 4 (never more than `concurrency`). */
  perAccount?: number;
  /** Attempts in flight to one endpoint; default 2 (never more than `perAccount`). */
  perEndpoint?: number;
  /** Free slots kept for accounts with nothing in flight; default a quarter of `concurrency` (deliverySlots.ts). */
  reserve?: number;
  /** The endpoints' circuit breaker; defaults: opens after 5 failures in a row, cools down 6 retry steps (30 s), at most 720 (1 h). */
  breaker?: Partial<CircuitBreakerOptions>;
  /** One attempt's wait for an answer; default 10 s. */
  timeoutMs?: number;
  /** Told what the worker did (metrics, tests); must not throw. */
  onEvent?: (event: DeliveryEvent) => void;
}

/** What the worker did with a delivery, or to an endpoint's circuit. */
export type DeliveryEvent =
  | { type: 'attempted'; deliveryId: string; endpointId: string; accountId: string; ok: boolean }
  | { type: 'held'; deliveryId: string; endpointId: string; accountId: string; until: string }
  | { type: 'circuit'; endpointId: string; state: CircuitState['state'] };

/** The events an intent entering its current status owes. */
export function eventsFor(intent: Pick<Intent, 'status'>): WebhookEventType[] {
  const events: WebhookEventType[] = ['intent.updated'];
  if (intent.status === 'completed') events.push('intent.completed');
  if (intent.status === 'failed') events.push('intent.failed');
  // (a string comparison: the status exists where intents can be cancelled)
  if ((intent.status as string) === 'cancelled') events.push('intent.cancelled');
  return events;
}

/**
 * The message id of one event of one intent version for one endpoint:
 * derived, not random, so recording the same transition twice (a hook run
 * again) writes one delivery.
 */
export function messageId(endpointId: string, intent: Pick<Intent, 'id' | 'version'>, event: WebhookEventType): string {
  return `msg_${createHash('sha256').update(`${endpointId}:${intent.id}:${intent.version}:${event}`).digest('hex').slice(0, 32)}`;
}

/**
 * Webhook delivery (at-least-once): every intent transition becomes a
 * persisted delivery per subscribed endpoint, and a worker sends due ones.
 * The worker leases a delivery with one conditional update (claimDue), POSTs
 * it signed (Standard Webhooks), and records the outcome under the lease:
 * 2xx delivered; anything else retried after 5 s, 30 s, 2 min, 10 min,
 * 30 min, 1 h, 2 h, 4 h, then every 8 h, until 24 h after its creation
 * (then failed). A worker that dies mid-attempt lets its lease run out and
 * any instance sends the delivery again.
 *
 * One account cannot slow another's deliveries: attempts in flight are capped
 * per account and per endpoint, accounts take turns at free slots, an account
 * with nothing in flight goes first, and a few slots are kept for such
 * accounts (deliverySlots.ts), so a delivery of B is claimed at once while
 * the endpoints of A, or of many accounts together, pile up or hang.
 * An endpoint failing again and again trips its circuit (circuitBreaker.ts):
 * its deliveries are held (rescheduled, not sent) for a cool-down, then one
 * probe decides.
 */
export function createWebhookDispatcher(o: WebhookDispatcherOptions): WebhookDispatcher {
  const owner = `worker_${randomBytes(6).toString('hex')}`;
  const timeoutMs = o.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  // Longer than the slowest attempt (DNS ≤ 5 s, the answer ≤ timeoutMs): a lease never runs out under a live attempt.
  const leaseMs = timeoutMs + 20_000;
  const pollMs = o.pollMs ?? Math.max(10, Math.min(1_000, o.retry.baseMs));
  const slots = createDeliverySlots({ total: o.concurrency ?? 16, perAccount: o.perAccount ?? 4, perEndpoint: o.perEndpoint ?? 2, reserve: o.reserve });
  const breaker = createCircuitBreaker(
    {
      threshold: o.breaker?.threshold ?? 5,
      cooldownMs: o.breaker?.cooldownMs ?? 6 * o.retry.baseMs,
      maxCooldownMs: o.breaker?.maxCooldownMs ?? 720 * o.retry.baseMs,
    },
    (endpointId, state) => {
      if (state === 'open') o.logger.warn({ endpointId }, 'webhook endpoint keeps failing: its deliveries are held for a cool-down');
      o.onEvent?.({ type: 'circuit', endpointId, state });
    },
  );
  const inFlight = new Set<Promise<void>>();
  const recording = new Set<Promise<void>>();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let pumping = false;
  let again = false;

  async function attempt(d: WebhookDelivery): Promise<void> {
    const endpoint = await o.store.webhooks.getEndpoint(d.endpointId);
    if (!endpoint) {
      await o.store.webhooks.finishAttempt(d.id, owner, {
        status: 'failed',
        attempts: d.attempts,
        nextAttemptAt: null,
        lastStatusCode: null,
        lastError: 'the endpoint was deleted',
        deliveredAt: null,
      });
      return;
    }
    const admitted = breaker.admit(endpoint.id, o.clock.now().getTime());
    if (!admitted.send) {
      // a probe is in flight: given back, and passed over by claims until the probe has answered
      if (admitted.until === null) await o.store.webhooks.release(d.id, owner);
      else await hold(d, admitted.until);
      return;
    }
    let recorded = false;
    try {
      const secret = o.secrets.open(endpoint.id, endpoint.secretCiphertext, endpoint.secretKeyVersion);
      const timestamp = Math.floor(o.clock.now().getTime() / 1000);
      const headers = { 'webhook-id': d.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureOf(secret, d.id, timestamp, d.body) };
      const result = await sendWebhook(endpoint.url, d.body, headers, { egress: o.egress, timeoutMs, signal: abort.signal });
      if (!result.ok && abort.signal.aborted) {
        // stopping: not an attempt of the endpoint's; the next worker sends it
        await o.store.webhooks.release(d.id, owner);
        return;
      }
      breaker.record(endpoint.id, result.ok, o.clock.now().getTime());
      recorded = true;
      await recordOutcome(d, result);
      o.onEvent?.({ type: 'attempted', deliveryId: d.id, endpointId: d.endpointId, accountId: d.accountId, ok: result.ok });
    } finally {
      if (!recorded) breaker.abandon(endpoint.id);
    }
  }

  async function recordOutcome(d: WebhookDelivery, result: SendResult): Promise<void> {
    const now = o.clock.now();
    const attempts = d.attempts + 1;
    let outcome;
    if (result.ok) {
      outcome = {
        status: 'delivered' as const,
        attempts,
        nextAttemptAt: null,
        lastStatusCode: result.statusCode,
        lastError: null,
        deliveredAt: now.toISOString(),
      };
    } else {
      const next = nextAttemptAt(o.retry, Date.parse(d.createdAt), attempts, now.getTime());
      outcome = {
        status: next === null ? ('failed' as const) : ('pending' as const),
        attempts,
        nextAttemptAt: next === null ? null : new Date(next).toISOString(),
        lastStatusCode: result.statusCode,
        lastError: result.error,
        deliveredAt: null,
      };
    }
    if (!(await o.store.webhooks.finishAttempt(d.id, owner, outcome))) {
      o.logger.warn({ deliveryId: d.id }, 'webhook delivery: lease lost before the outcome was recorded (it will be sent again)');
    }
  }

  /**
   * A delivery to an endpoint whose circuit is open: not sent, due again when
   * the cool-down ends (no attempt counted, the log's last outcome kept), or
   * failed when that is past its retry window.
   */
  async function hold(d: WebhookDelivery, untilMs: number): Promise<void> {
    const over = untilMs > Date.parse(d.createdAt) + RETRY_WINDOW_STEPS * o.retry.baseMs;
    const outcome: DeliveryOutcome = {
      status: over ? 'failed' : 'pending',
      attempts: d.attempts,
      nextAttemptAt: over ? null : new Date(untilMs).toISOString(),
      lastStatusCode: d.lastStatusCode,
      lastError: over ? (d.lastError ?? 'not sent: the endpoint kept failing until the retry window ended') : d.lastError,
      deliveredAt: null,
    };
    if (await o.store.webhooks.finishAttempt(d.id, owner, outcome)) {
      o.onEvent?.({ type: 'held', deliveryId: d.id, endpointId: d.endpointId, accountId: d.accountId, until: new Date(untilMs).toISOString() });
    }
  }

  /**
   * The next delivery in the slots' order (deliverySlots.ts: idle accounts
   * first, then the others within their caps and the reserve, each passing
   * over accounts served this turn and endpoints probing); when nobody is
   * left for this turn, a new turn starts and the order is tried once more.
   */
  async function claimNext(): Promise<WebhookDelivery | null> {
    for (let turn = 0; turn < 2; turn++) {
      for (const skip of slots.claimOrder()) {
        const now = o.clock.now();
        const d = await o.store.webhooks.claimDue(now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), owner, {
          accounts: skip.accounts,
          endpoints: [...(skip.endpoints ?? []), ...breaker.probing()],
        });
        if (d) return d;
      }
      // everyone with a due delivery was served this turn: the next turn starts
      if (turn > 0 || !slots.turnStarted()) break;
      slots.nextTurn();
    }
    return null;
  }

  async function pump(): Promise<void> {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && slots.free()) {
          const d = await claimNext();
          if (!d) break;
          const done = slots.take(d);
          const id = d.id;
          const p: Promise<void> = attempt(d)
            .catch((err: unknown) => o.logger.warn({ err, deliveryId: id }, 'webhook delivery attempt failed'))
            .finally(() => {
              done();
              inFlight.delete(p);
              void pump();
            });
          inFlight.add(p);
        }
      } while (again && !stopped);
    } catch (err) {
      o.logger.warn({ err }, 'webhook worker: could not take due deliveries; trying again shortly');
    } finally {
      pumping = false;
    }
  }

  async function record(intent: Intent): Promise<void> {
    const endpoints = await o.store.webhooks.listEndpoints(intent.accountId);
    if (endpoints.length === 0) return;
    const events = eventsFor(intent);
    const now = o.clock.now().toISOString();
    const data = toIntentView(intent);
    let added = false;
    for (const endpoint of endpoints) {
      for (const type of events) {
        if (!endpoint.events.includes(type)) continue;
        const id = messageId(endpoint.id, intent, type);
        const delivery: WebhookDelivery = {
          id,
          endpointId: endpoint.id,
          accountId: endpoint.accountId,
          eventType: type,
          body: JSON.stringify({ type, timestamp: now, data }),
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
        if (await o.store.webhooks.insertDelivery(delivery)) added = true;
      }
    }
    if (added) void pump();
  }

  return {
    secrets: o.secrets,
    egress: o.egress,
    kick: () => void pump(),
    onTransition(intent) {
      const p: Promise<void> = record(intent)
        .catch((err: unknown) => o.logger.warn({ err, intentId: intent.id }, 'webhook deliveries not recorded for a transition'))
        .finally(() => recording.delete(p));
      recording.add(p);
    },
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => void pump(), pollMs);
      timer.unref();
      void pump();
    },
    async stop() {
      await Promise.allSettled([...recording]);
      stopped = true;
      if (timer) clearInterval(timer);
      abort.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
