import type { Address, Hex } from 'viem';
import type { Asset, ChainName } from '../domain/chains';
import type {
  AssumedFunds,
  Attested,
  ChainHoldings,
  ChainPort,
  GasEstimate,
  GasQuote,
  MarketRate,
  RouteFeeTable,
  SignedTx,
  TxReceipt,
  TxRequest,
  TxSigner,
} from '../ports/chain';
import { EngineStopped } from './abort';
import type { Scheduler } from './actors/scheduler';

type Settle = (value: unknown) => void;

/**
 * The chain port as one intent actor sees it, with one wrapper per call for
 * two jobs. Stop: a call rejects with EngineStopped as soon as the actor's
 * signal aborts (the call itself is left to settle on its own), so a stopping
 * engine never waits on a node. Turns: every answer (and every `onSigned`
 * call back into the engine) is handed over at the caller's turn of the
 * scheduler, so the work an answer starts counts against the turn's budget
 * instead of running in whichever turn the answer arrived, with every other
 * answer that arrived in it. One 'abort' listener per actor serves all its
 * calls (a listener per call showed in the engine's profile).
 */
class ActorChains implements ChainPort {
  /** The rejecters of this actor's calls in flight; null until its first call. */
  private waiting: Set<Settle> | null = null;

  constructor(
    private readonly inner: ChainPort,
    private readonly signal: AbortSignal,
    private readonly scheduler: Scheduler | undefined,
  ) {}

  get chains(): ChainPort['chains'] {
    return this.inner.chains;
  }

  private listen(): Set<Settle> {
    const waiting = new Set<Settle>();
    this.signal.addEventListener(
      'abort',
      () => {
        for (const reject of waiting) reject(new EngineStopped());
        waiting.clear();
      },
      { once: true },
    );
    return (this.waiting = waiting);
  }

  /** `p`'s outcome at the caller's turn, or EngineStopped once the signal aborts. */
  private at<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.signal.aborted) {
        reject(new EngineStopped());
        // the abandoned call's own rejection is handled here
        p.then(undefined, () => undefined);
        return;
      }
      const waiting = this.waiting ?? this.listen();
      waiting.add(reject);
      p.then(
        (value) => {
          waiting.delete(reject);
          const turn = this.scheduler?.pass();
          if (turn) void turn.then(() => resolve(value));
          else resolve(value);
        },
        (error: unknown) => {
          waiting.delete(reject);
          const turn = this.scheduler?.pass();
          if (turn) void turn.then(() => reject(error));
          else reject(error);
        },
      );
    });
  }

  /** The engine's callback run at the caller's turn; no extra microtask hop when the turn has budget left. */
  private inTurn<A>(fn: (a: A) => Promise<void>): (a: A) => Promise<void> {
    const scheduler = this.scheduler;
    if (scheduler === undefined) return fn;
    return (a) => {
      const turn = scheduler.pass();
      return turn ? turn.then(() => fn(a)) : fn(a);
    };
  }

  holdings(address: Address, names: readonly ChainName[]): Promise<ChainHoldings[]> {
    return this.at(this.inner.holdings(address, names));
  }
  rates(): Promise<MarketRate[]> {
    return this.at(this.inner.rates());
  }
  routeFees(): Promise<RouteFeeTable> {
    return this.at(this.inner.routeFees());
  }
  priceUsd(asset: Asset, chain: ChainName): Promise<number> {
    return this.at(this.inner.priceUsd(asset, chain));
  }
  send(signer: TxSigner, tx: TxRequest, onSigned: (signed: SignedTx) => Promise<void>, onGasTopUp?: (wei: bigint) => void): Promise<SignedTx> {
    return this.at(this.inner.send(signer, tx, this.inTurn(onSigned), onGasTopUp));
  }
  rebroadcast(chain: ChainName, raw: Hex): Promise<void> {
    return this.at(this.inner.rebroadcast(chain, raw));
  }
  receipt(chain: ChainName, txHash: Hex, timeoutMs?: number): Promise<TxReceipt | null> {
    return this.at(this.inner.receipt(chain, txHash, timeoutMs));
  }
  findReceipt(chain: ChainName, hashes: readonly Hex[], waitMs: number): Promise<TxReceipt | null> {
    return this.at(this.inner.findReceipt(chain, hashes, waitMs));
  }
  isKnown(chain: ChainName, txHash: Hex): Promise<boolean> {
    return this.at(this.inner.isKnown(chain, txHash));
  }
  replace(signer: TxSigner, sent: Pick<SignedTx, 'chain' | 'kind' | 'raw'>, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    return this.at(this.inner.replace(signer, sent, this.inTurn(onSigned)));
  }
  messageReceived(chain: ChainName, message: Hex): Promise<Hex | null> {
    return this.at(this.inner.messageReceived(chain, message));
  }
  attest(chain: ChainName, burnTxHash: Hex): Promise<Attested> {
    return this.at(this.inner.attest(chain, burnTxHash));
  }
  gasQuote(chain: ChainName): Promise<GasQuote> {
    return this.at(this.inner.gasQuote(chain));
  }
  estimateGas(from: Address, tx: TxRequest, assume?: AssumedFunds): Promise<GasEstimate> {
    return this.at(this.inner.estimateGas(from, tx, assume));
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The chain port of one intent actor: calls end with EngineStopped when `signal` aborts, answers come at the caller's turn of `scheduler` (absent: at once). */
export function actorChains(chains: ChainPort, signal: AbortSignal, scheduler?: Scheduler): ChainPort {
  return new ActorChains(chains, signal, scheduler);
}
