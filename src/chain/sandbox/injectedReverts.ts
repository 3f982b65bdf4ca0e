import type { TxRequest } from '../../ports/chain';
import type { FaultRegistry } from '../../domain/sandboxFaults';
import type { ViemChainPort } from '../viem/viemPortOptions';

/** Gas an injected revert is signed with once its estimate failed (which would refuse the call): the revert is mined and in a receipt. */
const REVERTING_GAS_LIMIT = 1_000_000n;

/**
 * The request an injected fault turns `tx` into, or null: a `deposit-revert`
 * supplies, a `bridge-revert` burns, more than the step's approve allows
 * (twice the amount and one unit), so the transaction reverts on chain; a
 * permit supply goes without its permit, so nothing allows it at all.
 */
function sabotaged(faults: FaultRegistry, tx: TxRequest): TxRequest | null {
  if (tx.kind === 'supply' && faults.take(tx.chain, 'deposit-revert')) {
    const { permit: _permit, ...plain } = tx;
    return { ...plain, amount: tx.amount * 2n + 1n };
  }
  if (tx.kind === 'burn' && faults.take(tx.chain, 'bridge-revert')) return { ...tx, amount: tx.amount * 2n + 1n };
  return null;
}

/**
 * Sandbox only: the chain port with the injected reverts of
 * POST /admin/sandbox/faults (`deposit-revert`, `bridge-revert`): the next
 * supply or burn on the chain is sent so that it is mined and reverts. The
 * production send path knows nothing of faults.
 */
export function withInjectedReverts(port: ViemChainPort): ViemChainPort {
  return {
    ...port,
    send(signer, tx, onSigned, onGasTopUp) {
      const bad = sabotaged(port.faults, tx);
      return bad ? port.sendEvenIfReverting(REVERTING_GAS_LIMIT, signer, bad, onSigned, onGasTopUp) : port.send(signer, tx, onSigned, onGasTopUp);
    },
    // In a user operation the sabotaged call reverts the whole operation, mined with its bundle.
    sendOperation(wallet, chain, calls, onSigned) {
      let hit = false;
      const sent = calls.map((tx) => {
        const bad = hit ? null : sabotaged(port.faults, tx);
        if (bad) hit = true;
        return bad ?? tx;
      });
      return hit ? port.sendOperationEvenIfReverting(REVERTING_GAS_LIMIT, wallet, chain, sent, onSigned) : port.sendOperation!(wallet, chain, calls, onSigned);
    },
  };
}
