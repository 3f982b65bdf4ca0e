import { createSystemClock, type Clock, type TimerId } from '../../domain/clock';
import { ServiceError } from '../../domain/errors/base';
import { Mailbox, type TurnGate } from './mailbox';

/** What a behavior may use besides its state and message. */
export interface ActorContext<M> {
  readonly id: string;
  /** Aborted once the actor is being stopped, so a long handler can wrap up early. */
  readonly signal: AbortSignal;
  now(): Date;
  /** Queues a message to this actor, processed after the current one; false when the actor is stopping. */
  self(message: M): boolean;
  /** Queues a message to another actor; false when there is no such actor. */
  tell(id: string, message: M): boolean;
}

/** An actor's behavior: the next state from the current one and a message. */
export type Behavior<S, M> = (state: S, message: M, ctx: ActorContext<M>) => Promise<S> | S;

/** Turns an error thrown by the behavior into the actor's next state (e.g. a failed intent). */
export type Supervisor<S, M> = (error: unknown, state: S, message: M, ctx: ActorContext<M>) => Promise<S> | S;

/** Per-actor options. */
export interface SpawnOptions<S, M> {
  supervise?: Supervisor<S, M>;
  /** Overrides the system's `idleMs` for this actor. */
  idleMs?: number;
  /** Called once with the last state when the actor is forgotten (stopped and drained): release what the state holds. */
  onStop?: (state: S) => void;
}

/** A handle on one spawned actor; it never reaches a later actor spawned under the same id. */
export interface ActorRef<S, M> {
  readonly id: string;
  tell(message: M): boolean;
  /** The state after the last processed message. */
  getSnapshot(): S;
}

/** Options of `createActorSystem`. */
export interface ActorSystemOptions<M> {
  /** Receives errors no supervisor handled (none given, or the supervisor threw). Defaults to console.error. */
  onError?: (error: unknown, info: { actorId: string; message: M }) => void;
  /** Stop an actor after this long without messages; absent or 0 = never. */
  idleMs?: number;
  clock?: Clock;
  /** Every actor waits its turn here before each message (the engine's scheduler); absent: no yielding between messages. */
  gate?: TurnGate;
}

/** A set of actors sharing one message type, clock and error reporter. */
export interface ActorSystem<M> {
  /** Starts an actor; throws INTERNAL_ERROR when `id` is already live. */
  spawn<S>(id: string, behavior: Behavior<S, M>, initial: S, options?: SpawnOptions<S, M>): ActorRef<S, M>;
  /** Queues `message` for actor `id`; false when there is no such actor or it is stopping. */
  tell(id: string, message: M): boolean;
  has(id: string): boolean;
  /** Stops taking messages for `id`, lets the queued ones finish, then forgets the actor. */
  stop(id: string): Promise<void>;
  /** Stops every actor (including ones spawned meanwhile) and awaits their in-flight handlers. */
  stopAll(): Promise<void>;
  /** Live actors (stopping ones included until they have drained). */
  size(): number;
}

/**
 * The abort reason of a stopping actor's signal, made once: without one,
 * abort() builds a DOMException with a stack trace for every actor stopped
 * (every intent's), which showed in the engine's profile.
 */
const ACTOR_STOPPED: Error = Object.assign(new Error('The actor is stopping'), { name: 'AbortError' });

interface Cell<M> {
  mailbox: Mailbox<M>;
  controller: AbortController;
  idleTimer: TimerId | null;
  stopping: Promise<void> | null;
  /** Runs the spawn's `onStop` with the last state. */
  stopped(): void;
}

/** Creates an actor system: a FIFO mailbox per actor, one message at a time, supervised failures, idle stop. */
export function createActorSystem<M>(options: ActorSystemOptions<M> = {}): ActorSystem<M> {
  const clock = options.clock ?? createSystemClock();
  const onError = options.onError ?? ((error: unknown, info: { actorId: string }) => console.error(`actor ${info.actorId} failed`, error));
  const cells = new Map<string, Cell<M>>();

  function clearIdle(cell: Cell<M>): void {
    if (cell.idleTimer !== null) clock.clearTimeout(cell.idleTimer);
    cell.idleTimer = null;
  }

  function deliver(id: string, cell: Cell<M>, message: M): boolean {
    if (cells.get(id) !== cell) return false;
    clearIdle(cell);
    return cell.mailbox.enqueue(message);
  }

  function stop(id: string): Promise<void> {
    const cell = cells.get(id);
    if (cell === undefined) return Promise.resolve();
    if (cell.stopping) return cell.stopping;
    cell.mailbox.close();
    clearIdle(cell);
    cell.controller.abort(ACTOR_STOPPED);
    const forget = (): void => {
      if (cells.get(id) === cell) cells.delete(id);
      cell.stopped();
    };
    if (!cell.mailbox.busy) {
      forget();
      cell.stopping = Promise.resolve();
    } else {
      cell.stopping = cell.mailbox.idle().then(forget);
    }
    return cell.stopping;
  }

  function tell(id: string, message: M): boolean {
    const cell = cells.get(id);
    return cell !== undefined && deliver(id, cell, message);
  }

  function spawn<S>(id: string, behavior: Behavior<S, M>, initial: S, spawnOptions: SpawnOptions<S, M> = {}): ActorRef<S, M> {
    if (cells.has(id)) throw new ServiceError('INTERNAL_ERROR', `Actor ${id} is already running`, { details: { actorId: id } });
    const idleMs = spawnOptions.idleMs ?? options.idleMs ?? 0;
    let state = initial;
    const controller = new AbortController();

    const armIdle = (): void => {
      if (idleMs <= 0 || cell.stopping || cell.mailbox.size > 0) return;
      clearIdle(cell);
      cell.idleTimer = clock.setTimeout(() => {
        cell.idleTimer = null;
        // the last handler may have returned while its mailbox loop has not yet wound down
        if (cell.mailbox.busy) armIdle();
        else void stop(id);
      }, idleMs);
    };

    const ctx: ActorContext<M> = {
      id,
      signal: controller.signal,
      now: () => clock.now(),
      self: (message) => deliver(id, cell, message),
      tell,
    };

    const handle = async (message: M): Promise<void> => {
      try {
        state = await behavior(state, message, ctx);
      } catch (error) {
        if (!spawnOptions.supervise) throw error;
        state = await spawnOptions.supervise(error, state, message, ctx);
      } finally {
        armIdle();
      }
    };

    const cell: Cell<M> = {
      mailbox: new Mailbox<M>(handle, (error, message) => onError(error, { actorId: id, message }), options.gate),
      controller,
      idleTimer: null,
      stopping: null,
      stopped: () => {
        try {
          spawnOptions.onStop?.(state);
        } catch (error) {
          onError(error, { actorId: id, message: undefined as M });
        }
      },
    };
    cells.set(id, cell);
    armIdle();

    return { id, tell: (message) => deliver(id, cell, message), getSnapshot: () => state };
  }

  async function stopAll(): Promise<void> {
    while (cells.size > 0) await Promise.all([...cells.keys()].map(stop));
  }

  return { spawn, tell, has: (id) => cells.has(id), stop, stopAll, size: () => cells.size };
}
