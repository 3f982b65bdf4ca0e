import type { Address, Hex, LocalAccount } from 'viem';
import type { AccountModel, Asset, ChainName, TokenAsset } from '../domain/chains';
import type {
  AssumedFunds,
  Attested,
  ChainHoldings,
  ChainPort,
  GasEstimate,
  GasQuote,
  MarketRate,
  Protocol,
  RouteFeeTable,
  SignedOperation,
  SignedTx,
  TxReceipt,
  TxRequest,
  TxSigner,
} from '../ports/chain';
import { EngineStopped } from './abort';
import type { TurnGate } from './actors/mailbox';

type Reject = (error: unknown) => void;
const ignore = (): void => undefined;

/**
 * The chain port as one intent actor sees it: every answer (value or error)
 * is handed over at the actor's turn of the scheduler (`gate`), so the work
 * it starts counts against the turn's budget instead of running in whichever
 * turn the answer arrived with every other answer of it; and every call
 * rejects with EngineStopped as soon as the actor's signal aborts (the
 * abandoned call is left to settle on its own). Both are one wrapper per
 * call: one promise, one `then` on the port's answer, one abort listener per
 * actor for all its calls in flight. `onSigned` callbacks back into the
 * engine run at the actor's turn too.
 */
export class ActorChains implements ChainPort {
  /** Rejecters of the calls in flight, told when the signal aborts. */
  private readonly inFlight = new Set<Reject>();
  private listening = false;

  constructor(
    private readonly port: ChainPort,
    private readonly signal: AbortSignal,
    private readonly gate?: TurnGate,
  ) {}

  get chains(): ChainPort['chains'] {
    return this.port.chains;
  }

  private readonly stopAll = (): void => {
    const rejects = [...this.inFlight];
    this.inFlight.clear();
    for (const reject of rejects) reject(new EngineStopped());
  };

  /** `p`'s outcome at the actor's turn, or EngineStopped as soon as the signal aborts. */
  private at<T>(p: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      p.then(undefined, ignore);
      return Promise.reject(new EngineStopped());
    }
    if (!this.listening) {
      this.listening = true;
      this.signal.addEventListener('abort', this.stopAll, { once: true });
    }
    const { inFlight, gate } = this;
    return new Promise<T>((resolve, reject) => {
      inFlight.add(reject);
      // Until it is handed over an abort still rejects it; the hand-over after that is a no-op.
      const handOver = (ok: boolean, outcome: unknown): void => {
        inFlight.delete(reject);
        if (ok) resolve(outcome as T);
        else reject(outcome);
      };
      p.then(
        (value) => {
          const turn = gate?.pass();
          if (turn) void turn.then(() => handOver(true, value));
          else handOver(true, value);
        },
        (error: unknown) => {
          const turn = gate?.pass();
          if (turn) void turn.then(() => handOver(false, error));
          else handOver(false, error);
        },
      );
    });
  }

  /** `onSigned` at the actor's turn; no extra microtask hop when the turn has budget left. */
  private inTurn<A>(fn: (a: A) => Promise<void>): (a: A) => Promise<void> {
    const gate = this.gate;
    if (!gate) return fn;
    return (a) => {
      const turn = gate.pass();
      return turn ? turn.then(() => fn(a)) : fn(a);
    };
  }

  holdings(address: Address, chains: readonly ChainName[]): Promise<ChainHoldings[]> {
    return this.at(this.port.holdings(address, chains));
  }
  rates(): Promise<MarketRate[]> {
    return this.at(this.port.rates());
  }
  routeFees(): Promise<RouteFeeTable> {
    return this.at(this.port.routeFees());
  }
  priceUsd(asset: Asset, chain: ChainName): Promise<number> {
    return this.at(this.port.priceUsd(asset, chain));
  }
  send(signer: TxSigner, tx: TxRequest, onSigned: (signed: SignedTx) => Promise<void>, onGasTopUp?: (wei: bigint) => void): Promise<SignedTx> {
    return this.at(this.port.send(signer, tx, this.inTurn(onSigned), onGasTopUp));
  }
  rebroadcast(chain: ChainName, raw: Hex): Promise<void> {
    return this.at(this.port.rebroadcast(chain, raw));
  }
  receipt(chain: ChainName, txHash: Hex, timeoutMs?: number): Promise<TxReceipt | null> {
    return this.at(this.port.receipt(chain, txHash, timeoutMs));
  }
  findReceipt(chain: ChainName, hashes: readonly Hex[], waitMs: number): Promise<TxReceipt | null> {
    return this.at(this.port.findReceipt(chain, hashes, waitMs));
  }
  isKnown(chain: ChainName, txHash: Hex): Promise<boolean> {
    return this.at(this.port.isKnown(chain, txHash));
  }
  replace(signer: TxSigner, sent: Pick<SignedTx, 'chain' | 'kind' | 'raw'>, onSigned: (signed: SignedTx) => Promise<void>): Promise<SignedTx> {
    return this.at(this.port.replace(signer, sent, this.inTurn(onSigned)));
  }
  messageReceived(chain: ChainName, message: Hex): Promise<Hex | null> {
    return this.at(this.port.messageReceived(chain, message));
  }
  attest(chain: ChainName, burnTxHash: Hex): Promise<Attested> {
    return this.at(this.port.attest(chain, burnTxHash));
  }
  gasQuote(chain: ChainName): Promise<GasQuote> {
    return this.at(this.port.gasQuote(chain));
  }
  estimateGas(from: Address, tx: TxRequest, assume?: AssumedFunds): Promise<GasEstimate> {
    return this.at(this.port.estimateGas(from, tx, assume));
  }
  supplyPermit(chain: ChainName, protocol: Protocol, asset: TokenAsset): boolean {
    return this.port.supplyPermit?.(chain, protocol, asset) ?? false;
  }
  accountModel(chain: ChainName): AccountModel {
    return this.port.accountModel?.(chain) ?? 'plain';
  }
  sendOperation(
    wallet: LocalAccount,
    chain: ChainName,
    calls: readonly TxRequest[],
    onSigned: (signed: SignedOperation) => Promise<void>,
  ): Promise<SignedOperation> {
    if (!this.port.sendOperation) return Promise.reject(new Error(`the chain port sends no user operations (${chain})`));
    return this.at(this.port.sendOperation(wallet, chain, calls, this.inTurn(onSigned)));
  }
  close(): Promise<void> {
    return this.port.close();
  }
}
