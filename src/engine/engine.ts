import type { AuditActor } from '../domain/audit';
import type { Clock } from '../domain/clock';
import type { Intent } from '../domain/intent';
import type { ChainPort } from '../ports/chain';
import type { KeyVault } from '../ports/keyVault';
import type { AuditLog, IntentLeaseRepo, IntentRepo, WalletRepo } from '../ports/store';
import { createActorSystem } from './actors/runtime';
import { createScheduler } from './actors/scheduler';
import { ActorChains } from './actorChains';
import { advance } from './advance';
import type { EngineLogger } from './engineLogger';
import { createIntentBus } from './eventBus';
import type { IntentBus } from '../ports/intentBus';
import { DEFAULT_RETRY, backoffMs, type RetryPolicy } from './retry';
import { spawnIntentActor, type HaltReason, type IntentMsg } from './intentActor';
import { cancelIntent } from './cancelRequest';
import type { CommitDeps } from './commitTransition';
import { sleep } from './abort';
import { recoverIntents, resumeOrder } from './recovery';
import { createLeaseKeeper, type LeaseKeeper } from './leaseKeeper';
import { isFinal } from '../domain/intentStateMachine';
import type { EngineEffects, UnitContext } from './unitContext';
import { walletSigner } from './walletSigner';
import { walletActorId, walletBehavior, walletSupervisor, type WalletActorState, type WalletMsg } from './walletActor';

/** How often a planner waiting for a wallet's planning lease asks again. */
const PLAN_LOCK_WAIT = { baseMs: 25, maxMs: 500 };

/** What `createEngine` needs. */
export interface EngineOptions {
  /** `auditLog`: where final transitions are recorded (absent: not recorded). */
  store: { intents: IntentRepo; wallets: Pick<WalletRepo, 'getById'>; auditLog?: Pick<AuditLog, 'append'> };
  chains: ChainPort;
  keyVault: Pick<KeyVault, 'signer'>;
  clock: Clock;
  logger: EngineLogger;
  /** Defaults to a fresh bus. */
  bus?: IntentBus;
  /** Back-off for NETWORK_ERROR/TIMEOUT; default 5 attempts, 500 ms doubling, capped at 8 s (30 s with a transaction in flight, never giving up). */
  retry?: Partial<RetryPolicy>;
  /** A sent transaction not mined this long after its last broadcast is broadcast again; two periods after signing, replaced with a higher fee. Default 60 s. */
  txStuckAfterMs?: number;
  /** Called after each confirmed transaction of a wallet (drop its cached balances). */
  onWalletActivity?: (walletId: string) => void;
  /** Balances and rates planning may take from the service's read caches (see EngineEffects.planningCache). */
  planningCache?: EngineEffects['planningCache'];
  /** The spending policy's check of each plan before its first signature (see EngineEffects.checkPlan). */
  checkPlan?: EngineEffects['checkPlan'];
  /** Called with the gas cost of each mined transaction of an intent. */
  onGasSpent?: (intent: Intent, gasCostWei: bigint) => void;
  /** Called once when an intent reaches a final state, after it is persisted (a failed one's reservations are given back). */
  onFinal?: (intent: Intent) => Promise<void> | void;
  /**
   * Told of each status an intent enters, after it is persisted (metrics,
   * webhooks): `pending` once, when a new intent is submitted (not when
   * recovery resumes one), then every change of status, a client's cancel
   * included. Must not throw.
   */
  onTransition?: (intent: Intent) => void;
  /**
   * Stop a wallet actor after this long without intents; default 60 s, 0 =
   * never. The wallet's decrypted signer is held while its actor is awake
   * (from its first signature) and dropped when the actor stops.
   */
  walletIdleMs?: number;
  /**
   * How long one turn of the event loop may run intent work before the
   * engine's actors wait for a later turn (FIFO across actors); default 4 ms,
   * 0 = never yield (a turn runs every ready continuation).
   */
  turnBudgetMs?: number;
  /** Wait before running an intent again after an infrastructure fault; default 1 s doubling, capped at 30 s, never giving up. */
  resume?: { baseMs: number; maxMs: number };
  /**
   * Several engines on one store (docs/architecture.md, "Several instances"): each intent is
   * run under a lease held by one engine; an engine that stops abruptly has
   * its intents taken over by another within `leaseMs` (default 15 s).
   * Absent: this engine is the store's only one and runs whatever it is given.
   */
  leases?: { repo: IntentLeaseRepo; owner: string; leaseMs?: number; now?: () => number; onError?: (err: unknown, what: string) => void };
}

/** The intent engine: wallet actors that serialise intents, intent actors that plan and execute them. */
export interface Engine {
  readonly bus: IntentBus;
  /** Whether this engine holds the lease of the intent (it runs it and publishes its snapshots); false without leases. */
  holds(intentId: string): boolean;
  /** Queues a persisted, non-final intent behind its wallet's earlier ones. After stop() it is left for the next start's recovery. */
  submit(intent: Intent): Promise<void>;
  /**
   * A client's cancel, made `by` it (the audit event's actor): a pending
   * intent is committed `cancelled` at once, a planning or executing one has
   * the request recorded for its next safe point, a cancelled one is answered
   * as it is; completed or failed: INTENT_NOT_CANCELLABLE. Resolves the
   * intent as stored after it.
   */
  cancel(intentId: string, by?: AuditActor): Promise<Intent>;
  /** Runs recovery: resumes every non-final intent in the store that no other live engine holds; resolves with how many. */
  start(): Promise<{ resumed: number }>;
  /** Stops taking work, lets in-flight units wind down at their next safe point, and resolves once every actor has stopped; its leases are handed back. */
  stop(): Promise<void>;
}

/** Builds the engine (docs/architecture.md) over the store, the chain port and the key vault. */
export function createEngine(options: EngineOptions): Engine {
  const { store, clock, logger } = options;
  const bus = options.bus ?? createIntentBus();
  const budgetMs = options.turnBudgetMs ?? 4;
  const scheduler = budgetMs > 0 ? createScheduler({ budgetMs, clock }) : undefined;
  const effects: EngineEffects = {
    chains: options.chains,
    keyVault: options.keyVault,
    wallets: store.wallets,
    intents: store.intents,
    clock,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    txStuckAfterMs: options.txStuckAfterMs ?? 60_000,
    onWalletActivity: options.onWalletActivity,
    planningCache: options.planningCache,
    onGasSpent: options.onGasSpent,
    checkPlan: options.checkPlan,
  };
  const onError = (err: unknown, info: { actorId: string }): void => logger.error({ actorId: info.actorId, err }, 'actor failed');
  const intentActors = createActorSystem<IntentMsg>({ clock, onError, gate: scheduler });
  const walletActors = createActorSystem<WalletMsg>({ clock, onError, idleMs: options.walletIdleMs ?? 60_000, gate: scheduler });
  let stopping = false;
  const resume = options.resume ?? { baseMs: 1_000, maxMs: 30_000 };
  const leases = options.leases ? keepLeases(options.leases) : undefined;
  if (leases) effects.planLock = walletPlanLock(leases);

  /** The wallet's planning lease, kept among the intent leases (renewed with them; one that outlives its engine expires like theirs). */
  function walletPlanLock(keeper: LeaseKeeper): NonNullable<EngineEffects['planLock']> {
    return async (walletId, signal) => {
      const id = `walletplan:${walletId}`;
      for (let attempt = 1; ; attempt++) {
        if (await keeper.acquire(id)) return () => keeper.release(id);
        await sleep(clock, backoffMs(PLAN_LOCK_WAIT, attempt), signal);
      }
    };
  }

  function keepLeases(o: NonNullable<EngineOptions['leases']>): LeaseKeeper {
    const now = o.now ?? (() => clock.now().getTime());
    const leaseMs = o.leaseMs ?? 15_000;
    return createLeaseKeeper({
      repo: o.repo,
      owner: o.owner,
      leaseMs,
      now,
      clock,
      onLost(ids) {
        for (const id of ids) {
          logger.warn({ intentId: id }, 'intent lease taken by another engine (renewed too late); this engine lets go of it');
          void intentActors.stop(id);
        }
      },
      async onOrphans(ids) {
        const open: Intent[] = [];
        for (const id of ids) {
          const intent = await store.intents.get(id);
          // Its owner stopped after the intent's last step: only the lease is left to clear.
          if (intent === null || isFinal(intent.status)) {
            if (await o.repo.acquire(id, o.owner, now(), now() + 1)) await o.repo.release(id, o.owner);
          } else open.push(intent);
        }
        await takeOver(open, 'their engine stopped renewing its leases');
      },
      async onSweep() {
        // An instance that died between inserting an intent and leasing it: the intent has no lease at all.
        const bornBefore = new Date(now() - leaseMs).toISOString();
        const open = (await store.intents.listNonFinal()).filter((i) => i.createdAt < bornBefore && !intentActors.has(i.id) && !leases?.holds(i.id));
        if (open.length === 0) return;
        const held = await o.repo.heldAmong(
          open.map((i) => i.id),
          now(),
        );
        await takeOver(
          open.filter((i) => !held.has(i.id)),
          'they were never leased',
        );
      },
      onError: o.onError ?? ((err, what) => logger.warn({ err, what }, 'intent leases')),
    });
  }

  /** Queues intents another engine left, in recovery's order (executing first, oldest first). */
  async function takeOver(open: Intent[], why: string): Promise<void> {
    let taken = 0;
    for (const intent of resumeOrder(open)) if (!stopping && (await submit(intent))) taken++;
    if (taken > 0) logger.info({ count: taken, why }, 'took over intents');
  }

  /** Where every transition is committed, by an intent actor or by a client's cancel. */
  const commits: CommitDeps & { repo: IntentRepo } = {
    repo: store.intents,
    auditLog: store.auditLog,
    onFinal: options.onFinal,
    onTransition: options.onTransition,
    bus,
    clock,
    logger,
  };

  /** Runs one intent under its own actor; resolves with why the actor let go of it. */
  function runOnce(intent: Intent, keyVault: Pick<KeyVault, 'signer'>): Promise<HaltReason> {
    // An actor hands every unit the same commit and signal: its context (and its chain port, bound to the actor's signal and turns) is built once, not per unit of work.
    let unit: UnitContext | undefined;
    return new Promise<HaltReason>((resolve) => {
      spawnIntentActor(intentActors, intent, {
        ...commits,
        gate: scheduler,
        advance: (current, commit, signal) => {
          if (unit?.commit !== commit || unit.signal !== signal)
            unit = { ...effects, chains: new ActorChains(effects.chains, signal, scheduler), keyVault, commit, signal };
          return advance(current, unit);
        },
        onHalt: (last, reason) => {
          if (reason !== 'final') logger.info({ intentId: intent.id, status: last.status, reason }, 'intent actor halted');
          void intentActors.stop(intent.id);
          resolve(reason);
        },
      });
    });
  }

  /**
   * Runs one intent until it is final, the engine stops, or another writer
   * takes it. After an infrastructure fault (the store or a chain failing once
   * something is signed) it waits with back-off and runs it again, from the
   * store's copy, for as long as it takes: the wallet's later intents wait
   * behind it, as they would behind any executing intent.
   */
  async function runIntent(intentId: string, signal: AbortSignal, keys: Pick<KeyVault, 'signer'> = effects.keyVault): Promise<void> {
    for (let attempt = 1; !stopping && !signal.aborted; attempt++) {
      let reason: HaltReason;
      try {
        if (leases && !leases.holds(intentId)) return; // another engine took it over
        const intent = await store.intents.get(intentId);
        if (intent === null || isFinal(intent.status)) {
          await leases?.release(intentId);
          return;
        }
        if (intentActors.has(intentId) || stopping || signal.aborted) return;
        reason = await runOnce(intent, keys);
        await intentActors.stop(intentId); // let this run's actor wind down before any next run
      } catch (err) {
        logger.error({ intentId, err }, 'could not run the intent; it stays open and will be retried');
        reason = 'retry';
      }
      if (reason === 'final') await leases?.release(intentId);
      // Under a lease nobody else may write the intent but a client's cancel: run it again from the store's copy.
      const again = reason === 'retry' || (reason === 'superseded' && leases?.holds(intentId) === true);
      if (!again) return;
      try {
        await sleep(clock, backoffMs(resume, attempt), signal);
      } catch {
        return; // stopping: recovery resumes it at the next start
      }
    }
  }

  const behavior = walletBehavior(runIntent);
  const supervise = walletSupervisor(logger);

  /** Queues the intent behind its wallet's earlier ones; false when another live engine holds its lease (or this one is stopping). */
  async function submit(intent: Intent): Promise<boolean> {
    if (leases && !stopping && !(await leases.acquire(intent.id))) return false;
    const id = walletActorId(intent.walletId);
    const message: WalletMsg = { type: 'run', intentId: intent.id };
    while (!stopping) {
      if (walletActors.tell(id, message)) return true;
      if (!walletActors.has(id)) {
        // The wallet's signer is derived at its first signature and dropped when this actor stops (idle, or the engine stopping).
        const keys = walletSigner(effects.keyVault, intent.walletId);
        walletActors.spawn<WalletActorState>(id, behavior, { walletId: intent.walletId, ran: 0, keys }, { supervise, onStop: (state) => state.keys?.drop() });
        continue;
      }
      // the wallet's actor is stopping (idle): let it go, then start a fresh one
      await walletActors.stop(id);
    }
    logger.info({ intentId: intent.id }, 'engine stopping; intent left for recovery');
    return false;
  }

  return {
    bus,
    holds: (intentId) => leases?.holds(intentId) ?? false,
    async submit(intent) {
      if (intent.status === 'pending' && intent.version === 0) options.onTransition?.(intent);
      await submit(intent);
    },
    cancel: (intentId, by) => cancelIntent(commits, intentId, by),
    async start() {
      const resumed = await recoverIntents(store.intents, submit, logger);
      leases?.start();
      return { resumed };
    },
    async stop() {
      stopping = true;
      await Promise.all([walletActors.stopAll(), intentActors.stopAll()]);
      // A clean stop hands its leases back: other engines take the intents over at once, not a lease period later.
      await leases?.stop({ handBack: true });
    },
  };
}
