import { ServiceError, isServiceError } from '../domain/errors/base';
import { hasSignedTransaction, type Intent } from '../domain/intent';
import type { ActorContext, ActorRef, ActorSystem } from './actors/runtime';
import type { TurnGate } from './actors/mailbox';
import { isFinal, type IntentEvent } from '../domain/intentStateMachine';
import type { Commit } from './unitContext';
import { adoptCancelRequest } from './cancelRequest';
import { commitTransition, type CommitDeps, type CommitOptions } from './commitTransition';

/** The one message of an intent actor: run the intent's units of work until it is final (or the actor stops). */
export interface IntentMsg {
  type: 'advance';
}

/**
 * Why an intent actor stopped: its intent is final, the engine is stopping,
 * another writer moved the intent on, or an infrastructure fault struck after
 * a signed transaction (the intent stays open; the engine runs it again).
 */
export type HaltReason = 'final' | 'stopped' | 'superseded' | 'retry';

/** The actor's state: the intent as last persisted (mutated only by its own commits). */
export interface IntentActorState {
  intent: Intent;
  halted: boolean;
}

/** What an intent actor needs: where its commits go (`repo.get` reads back a newer version after a conflict, so a client's cancel request is adopted; absent: the actor lets go), and its work. */
export interface IntentActorDeps extends CommitDeps {
  /** One unit of work on a non-final intent; every change goes through `commit`. */
  advance(intent: Intent, commit: Commit, signal: AbortSignal): Promise<unknown>;
  /** Called once, when the actor stops working on the intent. */
  onHalt(intent: Intent, reason: HaltReason): void;
  /** Where the actor waits its turn of the event loop between units (the engine's scheduler); absent: the next unit runs at once. */
  gate?: TurnGate;
}

const ADVANCE: IntentMsg = { type: 'advance' };

/** The error a failed intent shows for an unexpected fault; the fault itself goes to the log only. */
const internalFailure = (intent: Intent): ServiceError =>
  new ServiceError('INTERNAL_ERROR', 'The intent failed on an internal error', { details: { intentId: intent.id, stage: intent.status } });

/**
 * Spawns the actor of one intent (docs/architecture.md): it applies the state machine's
 * transitions, persisting each (optimistic version) before publishing it on
 * the bus, one unit of work after another until the intent is final.
 *
 * Supervision: failing an intent is a decision of the domain (a revert, an
 * exhausted retryable step), never the supervisor's default. A thrown error
 * fails the intent with INTERNAL_ERROR only while nothing is signed; once a
 * transaction is, funds may be in flight (burned and not yet minted), so the
 * actor halts with 'retry' and the intent stays open for the engine to run
 * again. A stop leaves the intent as persisted, for recovery.
 */
export function spawnIntentActor(system: ActorSystem<IntentMsg>, intent: Intent, deps: IntentActorDeps): ActorRef<IntentActorState, IntentMsg> {
  // The one state object of this actor (every handler returns it, changed in place): its commit and options are made once, not per unit of work.
  const actorState: IntentActorState = { intent, halted: false };
  const commitOptions: CommitOptions = {
    // A client's cancel request (the engine's cancel) bumped the version: keep it and commit on top of it, never lose it.
    rebase: (stored) => {
      const adopted = adoptCancelRequest(actorState.intent, stored);
      if (adopted) actorState.intent = adopted;
      return adopted;
    },
    persisted: (next) => {
      actorState.intent = next;
    },
  };
  // No async frame of its own: the state follows each commit through `persisted` (one promise and one microtask hop fewer per commit).
  const commit: Commit = (event: IntentEvent) => commitTransition(deps, actorState.intent, event, commitOptions);
  const halt = (state: IntentActorState, reason: HaltReason): IntentActorState => {
    if (!state.halted) {
      state.halted = true;
      deps.onHalt(state.intent, reason);
    }
    return state;
  };

  const continueOrHalt = (state: IntentActorState, ctx: ActorContext<IntentMsg>): IntentActorState => {
    if (isFinal(state.intent.status)) return halt(state, 'final');
    if (ctx.signal.aborted || !ctx.self(ADVANCE)) return halt(state, 'stopped');
    return state;
  };

  /** Fails the intent with INTERNAL_ERROR; pending has no `fail` edge, so it passes through planning first. */
  const failInternal = async (state: IntentActorState): Promise<void> => {
    if (state.intent.status === 'pending') await commit({ type: 'plan' });
    const open = state.intent.status === 'executing' ? state.intent.executionPlan?.steps.find((s) => s.status !== 'completed') : undefined;
    await commit({
      type: 'fail',
      error: internalFailure(state.intent).toJSON(),
      failedStep: open === undefined ? undefined : open.index + 1,
      step: open === undefined ? undefined : { ...open, status: 'failed' },
    });
  };

  const ref = system.spawn<IntentActorState>(
    intent.id,
    // The units of one intent run in one handler, each after the actor's turn of the scheduler (as a message of its own would wait): no mailbox message, handler frame and promise per unit.
    async (state, _msg, ctx) => {
      if (state.halted) return state;
      for (;;) {
        if (isFinal(state.intent.status)) return halt(state, 'final');
        if (ctx.signal.aborted) return halt(state, 'stopped');
        await deps.advance(state.intent, commit, ctx.signal);
        const turn = isFinal(state.intent.status) ? null : deps.gate?.pass();
        if (turn) await turn;
      }
    },
    actorState,
    {
      supervise: async (error, state, _msg, ctx) => {
        const log = { intentId: state.intent.id, status: state.intent.status, version: state.intent.version, err: error };
        if (ctx.signal.aborted) return halt(state, 'stopped');
        if (isServiceError(error) && error.code === 'VERSION_CONFLICT') {
          deps.logger.warn(log, 'intent changed by another writer; this actor lets go of it');
          return halt(state, 'superseded');
        }
        // The store or another dependency is briefly unavailable (503): nothing is decided, the intent waits it out.
        if (hasSignedTransaction(state.intent) || (isServiceError(error) && error.code === 'SERVICE_UNAVAILABLE')) {
          deps.logger.error(log, 'intent actor failed after a signed transaction; the intent stays open and will be retried');
          return halt(state, 'retry');
        }
        deps.logger.error(log, 'intent actor failed; failing the intent with INTERNAL_ERROR');
        try {
          await failInternal(state);
        } catch (failError) {
          // The store itself is failing: nothing is recorded, so the engine runs the intent again later.
          deps.logger.error({ ...log, err: failError }, 'could not record the failure; the intent stays open and will be retried');
          return halt(state, 'retry');
        }
        return continueOrHalt(state, ctx);
      },
    },
  );
  ref.tell(ADVANCE);
  return ref;
}
