import type { Clock } from '../domain/clock';
import type { Intent } from '../domain/intent';
import type { ChainPort } from '../chain/port';
import type { KeyVault } from '../chain/keyVault';
import type { AuditLog, IntentRepo, WalletRepo } from '../store/port';
import { createActorSystem } from './actors/runtime';
import { createScheduler } from './actors/scheduler';
import { scheduledChains } from './scheduledChains';
import { advance } from './advance';
import type { EngineLogger } from './engineLogger';
import { createIntentBus, type IntentBus } from './eventBus';
import { DEFAULT_RETRY, backoffMs, type RetryPolicy } from './executor/retry';
import { spawnIntentActor, type HaltReason, type IntentMsg } from './intentActor';
import { sleep } from './abort';
import { recoverIntents } from './recovery';
import { isFinal } from './stateMachine';
import type { EngineEffects } from './unitContext';
import { walletSigner } from './walletSigner';
import { walletActorId, walletBehavior, walletSupervisor, type WalletActorState, type WalletMsg } from './walletActor';

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
  /** Called with the gas cost of each mined transaction of an intent. */
  onGasSpent?: (intent: Intent, gasCostWei: bigint) => void;
  /** Called once when an intent reaches a final state, after it is persisted (a failed one's reservations are given back). */
  onFinal?: (intent: Intent) => Promise<void> | void;
  /**
   * Told of each status an intent enters, after it is persisted (metrics):
   * `pending` once, when a new intent is submitted (not when recovery resumes
   * one), then every change of status. Must not throw.
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
}

/** The intent engine: wallet actors that serialise intents, intent actors that plan and execute them. */
export interface Engine {
  readonly bus: IntentBus;
  /** Queues a persisted, non-final intent behind its wallet's earlier ones. After stop() it is left for the next start's recovery. */
  submit(intent: Intent): Promise<void>;
  /** Runs recovery: resumes every non-final intent in the store; resolves with how many. */
  start(): Promise<{ resumed: number }>;
  /** Stops taking work, lets in-flight units wind down at their next safe point, and resolves once every actor has stopped. */
  stop(): Promise<void>;
}

/** Builds the engine (docs/architecture.md) over the store, the chain port and the key vault. */
export function createEngine(options: EngineOptions): Engine {
  const { store, clock, logger } = options;
  const bus = options.bus ?? createIntentBus();
  const budgetMs = options.turnBudgetMs ?? 4;
  const scheduler = budgetMs > 0 ? createScheduler({ budgetMs }) : undefined;
  const effects: EngineEffects = {
    chains: scheduler ? scheduledChains(options.chains, scheduler) : options.chains,
    keyVault: options.keyVault,
    wallets: store.wallets,
    intents: store.intents,
    clock,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    txStuckAfterMs: options.txStuckAfterMs ?? 60_000,
    onWalletActivity: options.onWalletActivity,
    onGasSpent: options.onGasSpent,
  };
  const onError = (err: unknown, info: { actorId: string }): void => logger.error({ actorId: info.actorId, err }, 'actor failed');
  const intentActors = createActorSystem<IntentMsg>({ clock, onError, gate: scheduler });
  const walletActors = createActorSystem<WalletMsg>({ clock, onError, idleMs: options.walletIdleMs ?? 60_000, gate: scheduler });
  let stopping = false;
  const resume = options.resume ?? { baseMs: 1_000, maxMs: 30_000 };

  /** Runs one intent under its own actor; resolves with why the actor let go of it. */
  function runOnce(intent: Intent, keyVault: Pick<KeyVault, 'signer'>): Promise<HaltReason> {
    return new Promise<HaltReason>((resolve) => {
      spawnIntentActor(intentActors, intent, {
        repo: store.intents,
        auditLog: store.auditLog,
        onFinal: options.onFinal,
        onTransition: options.onTransition,
        bus,
        clock,
        logger,
        advance: (current, commit, unitSignal) => advance(current, { ...effects, keyVault, commit, signal: unitSignal }),
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
        const intent = await store.intents.get(intentId);
        if (intent === null || isFinal(intent.status) || intentActors.has(intentId)) return;
        if (stopping || signal.aborted) return;
        reason = await runOnce(intent, keys);
        await intentActors.stop(intentId); // let this run's actor wind down before any next run
      } catch (err) {
        logger.error({ intentId, err }, 'could not run the intent; it stays open and will be retried');
        reason = 'retry';
      }
      if (reason !== 'retry') return;
      try {
        await sleep(clock, backoffMs(resume, attempt), signal);
      } catch {
        return; // stopping: recovery resumes it at the next start
      }
    }
  }

  const behavior = walletBehavior(runIntent);
  const supervise = walletSupervisor(logger);

  async function submit(intent: Intent): Promise<void> {
    const id = walletActorId(intent.walletId);
    const message: WalletMsg = { type: 'run', intentId: intent.id };
    while (!stopping) {
      if (walletActors.tell(id, message)) return;
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
  }

  return {
    bus,
    async submit(intent) {
      if (intent.status === 'pending' && intent.version === 0) options.onTransition?.(intent);
      await submit(intent);
    },
    async start() {
      return { resumed: await recoverIntents(store.intents, submit, logger) };
    },
    async stop() {
      stopping = true;
      await Promise.all([walletActors.stopAll(), intentActors.stopAll()]);
    },
  };
}
