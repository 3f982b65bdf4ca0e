import type { ChainPort } from '../ports/chain';
import type { Scheduler } from './actors/scheduler';

/**
 * The chain port as the engine's actors see it: every answer (and every
 * `onSigned` call back into the engine) is handed over at the caller's turn
 * of the scheduler, so the work an answer starts counts against the turn's
 * budget instead of running in whichever turn the answer arrived, with
 * every other answer that arrived in it.
 */
export function scheduledChains(chains: ChainPort, scheduler: Scheduler): ChainPort {
  const at = <T>(p: Promise<T>): Promise<T> => scheduler.after(p);
  // no extra microtask hop when the turn has budget left: the callback runs exactly as without the scheduler
  const inTurn =
    <A>(fn: (a: A) => Promise<void>) =>
    (a: A): Promise<void> => {
      const turn = scheduler.pass();
      return turn ? turn.then(() => fn(a)) : fn(a);
    };
  return {
    get chains() {
      return chains.chains;
    },
    holdings: (address, names) => at(chains.holdings(address, names)),
    rates: () => at(chains.rates()),
    routeFees: () => at(chains.routeFees()),
    priceUsd: (asset, chain) => at(chains.priceUsd(asset, chain)),
    send: (signer, tx, onSigned, onGasTopUp) => at(chains.send(signer, tx, inTurn(onSigned), onGasTopUp)),
    rebroadcast: (chain, raw) => at(chains.rebroadcast(chain, raw)),
    receipt: (chain, txHash, timeoutMs) => at(chains.receipt(chain, txHash, timeoutMs)),
    findReceipt: (chain, hashes, waitMs) => at(chains.findReceipt(chain, hashes, waitMs)),
    isKnown: (chain, txHash) => at(chains.isKnown(chain, txHash)),
    replace: (signer, sent, onSigned) => at(chains.replace(signer, sent, inTurn(onSigned))),
    messageReceived: (chain, message) => at(chains.messageReceived(chain, message)),
    attest: (chain, burnTxHash) => at(chains.attest(chain, burnTxHash)),
    gasQuote: (chain) => at(chains.gasQuote(chain)),
    estimateGas: (from, tx, assume) => at(chains.estimateGas(from, tx, assume)),
    close: () => chains.close(),
  };
}
