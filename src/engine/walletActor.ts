import type { KeyVault } from '../ports/keyVault';
import type { Behavior, Supervisor } from './actors/runtime';
import type { EngineLogger } from './engineLogger';
import type { WalletSigner } from './walletSigner';

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
  /** The wallet's signer while this actor is awake (dropped when it stops); absent: each run asks the vault. */
  keys?: WalletSigner;
}

/** Runs an intent to a halt (final, or the engine stopping); never rejects for the intent's own failures. */
export type RunIntent = (intentId: string, signal: AbortSignal, keys?: Pick<KeyVault, 'signer'>) => Promise<void>;

/** The actor id of a wallet. */
export const walletActorId = (walletId: string): string => `wallet:${walletId}`;

/**
 * The wallet actor's behavior (docs/architecture.md): its FIFO mailbox admits one intent
 * at a time, and each is run to its end before the next one plans, so two
 * intents never plan on the same funds. Once the engine stops, queued intents
 * are skipped; they stay `pending` in the store for recovery.
 */
export function walletBehavior(run: RunIntent): Behavior<WalletActorState, WalletMsg> {
  return async (state, msg, ctx) => {
    if (ctx.signal.aborted) return state;
    await run(msg.intentId, ctx.signal, state.keys);
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
