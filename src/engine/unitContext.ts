import type { Clock } from '../domain/clock';
import type { Intent, IntentPolicy, Step } from '../domain/intent';
import type { ServiceError } from '../domain/errors/base';
import type { ChainPort } from '../ports/chain';
import type { KeyVault } from '../ports/keyVault';
import type { IntentRepo, WalletRepo } from '../ports/store';
import type { IntentEvent } from '../domain/intentStateMachine';
import type { RetryPolicy } from './retry';
import type { PlanningCache } from './planning';

/** Applies `event` through the intent actor: transition, persist (optimistic version), then publish; resolves the new intent. */
export type Commit = (event: IntentEvent) => Promise<Intent>;

/** The engine's injected effects (docs/architecture.md: machines pure, chain calls injected). */
export interface EngineEffects {
  chains: ChainPort;
  keyVault: Pick<KeyVault, 'signer'>;
  wallets: Pick<WalletRepo, 'getById'>;
  /** The wallet's other executing intents, whose committed funds planning holds back. */
  intents: Pick<IntentRepo, 'listByWallet'>;
  clock: Clock;
  retry: RetryPolicy;
  /** A sent transaction not mined this long after its last broadcast is broadcast again (two periods after signing: replaced). */
  txStuckAfterMs: number;
  /** A transaction of the wallet was confirmed (cached balances are stale). */
  onWalletActivity?: (walletId: string) => void;
  /** What planning may take from the service's read caches (absent: it reads the chains every time). */
  planningCache?: PlanningCache;
  /**
   * The policy's check of a made plan, before anything is signed (the USD
   * caps priced where each step executes): the policy record to keep, or the
   * error the intent fails with. Absent: no such check.
   */
  checkPlan?: (intent: Intent, steps: readonly Step[]) => Promise<{ ok: true; policy?: IntentPolicy } | { ok: false; error: ServiceError }>;
  /**
   * Several engines on one store: takes the wallet's planning lease in the
   * store (waiting while another engine plans for the wallet) and resolves
   * with its release. Planning holds it until its plan is committed, so the
   * next planner of the wallet, on any instance, reads that plan among the
   * executing intents' reservations. Absent: this engine is the store's only
   * one and its wallet actor already plans one intent of a wallet at a time.
   */
  planLock?: (walletId: string, signal: AbortSignal) => Promise<() => Promise<void>>;
  /** A transaction of the intent was mined, costing `gasCostWei` (the account's gas budget counts it). */
  onGasSpent?: (intent: Intent, gasCostWei: bigint) => void;
}

/**
 * What one unit of work on an intent receives: the effects, its actor's
 * commit, and the stop signal. Its `chains` answer at the actor's turn of the
 * scheduler and reject with EngineStopped once `signal` aborts (ActorChains),
 * so a unit awaits a chain call as it is.
 */
export interface UnitContext extends EngineEffects {
  commit: Commit;
  signal: AbortSignal;
  /** Runs before a failing step fails the intent (the mints confirmed burns still owe, on a plan with user operations); resolves the intent to fail. */
  beforeFail?: (intent: Intent, failing: Step) => Promise<Intent>;
}
