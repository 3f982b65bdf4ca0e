import type { Address } from 'viem';
import type { AssumedFunds, GasEstimate, TxRequest } from '../../ports/chain';
import { SUPPLY_PERMIT_GAS, TYPICAL_GAS } from '../../ports/typicalGas';
import type { ChainAccess } from './chainAccess';
import { encodeTx } from './encodeTx';
import { isTransportError } from './nodeErrors';
import { simulateGas } from './simulateGas';

/**
 * ChainPort.estimateGas: eth_estimateGas, or a simulation under `assume`,
 * else the kind's typical figure; nothing is signed. A permit supply is
 * priced as the plain supply under the allowance its permit gives, plus what
 * the permit itself costs (SUPPLY_PERMIT_GAS): nothing is signed here, and a
 * permit without its signature cannot run.
 */
export async function estimateGas(access: ChainAccess, from: Address, tx: TxRequest, assume?: AssumedFunds): Promise<GasEstimate> {
  const estimate = await estimatePlain(access, from, tx, assume);
  return tx.kind === 'supply' && tx.permit ? { ...estimate, gas: estimate.gas + SUPPLY_PERMIT_GAS } : estimate;
}

async function estimatePlain(access: ChainAccess, from: Address, tx: TxRequest, assume?: AssumedFunds): Promise<GasEstimate> {
  const typical: GasEstimate = { gas: TYPICAL_GAS[tx.kind], method: 'typical' };
  // a mint carries the attestation of a burn that has not happened yet
  if (tx.kind === 'mint') return typical;
  const { to, data } = encodeTx(access.client(tx.chain), tx, from);
  if (assume !== undefined) {
    const gas = await simulateGas(access, tx.chain, from, to, data, assume, TYPICAL_GAS[tx.kind]);
    return gas === null ? typical : { gas, method: 'simulated' };
  }
  return access.call(tx.chain, (c) =>
    c.client.estimateGas({ account: from, to, data }).then(
      (gas): GasEstimate => ({ gas, method: 'estimated' }),
      (e: unknown) => {
        if (isTransportError(e)) throw e;
        return typical;
      },
    ),
  );
}
