import type { Behavior, Supervisor } from './actors/runtime';
import type { EngineLogger } from './engineLogger';

/** A wallet actor's message: run this intent once the ones before it are done. */
export interface WalletMsg {
  type: 'run';
  intentId: string;
}

/** What a wallet actor remembers. */
export interface WalletActorState {
  walletId: string;
  /** Intents run to a halt so far. */
  ran: number;
}

/** Runs an intent to a halt (final, or the engine stopping); never rejects for the intent's own failures. */
export type RunIntent = (intentId: string, signal: AbortSignal) => Promise<void>;

/** The actor id of a wallet. */
export const walletActorId = (walletId: string): string => `wallet:${walletId}`;

/**
 * The wallet actor's behavior (DESIGN §6): its FIFO mailbox admits one intent
 * at a time, and each is run to its end before the next one plans, so two
 * intents never plan on the same funds. Once the engine stops, queued intents
 * are skipped; they stay `pending` in the store for recovery.
 */
export function walletBehavior(run: RunIntent): Behavior<WalletActorState, WalletMsg> {
  return async (state, msg, ctx) => {
    if (ctx.signal.aborted) return state;
    await run(msg.intentId, ctx.signal);
    return { ...state, ran: state.ran + 1 };
  };
}

/** A run that threw (the store could not be read) is logged and the queue moves on; recovery retries at the next start. */
export function walletSupervisor(logger: EngineLogger): Supervisor<WalletActorState, WalletMsg> {
  return (error, state, msg) => {
    logger.error({ walletId: state.walletId, intentId: msg.intentId, err: error }, 'wallet actor could not run an intent');
    return state;
  };
}
