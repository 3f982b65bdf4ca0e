import { encodeFunctionData, maxUint256, pad, zeroHash, type Address, type Hex } from 'viem';
import { messageTransmitterV2Abi, sandboxCometAbi, sandboxPoolAbi, sandboxTokenAbi, tokenMessengerV2Abi } from '../sandbox/abis';
import { CHAINS } from '../../domain/chains';
import type { TokenAsset } from '../../domain/chains';
import type { Protocol, Spender, TxRequest } from '../../ports/chain';
import { findMarket, type ChainDeployment, type ManifestMarket } from '../../ports/deploymentManifest';
import { ServiceError } from '../../domain/errors/base';

/** An unknown CCTP domain: the messenger reverts a burn towards it (injected bridge-revert). */
const UNROUTABLE_DOMAIN = 99;

export interface EncodedTx {
  to: Address;
  data: Hex;
}

/** The token contract of `asset` on the deployment's chain. */
export function token(d: ChainDeployment, asset: keyof ChainDeployment['tokens']): Address {
  const t = d.tokens[asset];
  if (!t) throw new ServiceError('INVALID_CHAIN', `${asset} is not deployed on ${d.chain}`, { details: { chain: d.chain, asset } });
  return t;
}

/** The market of `protocol` lending `asset` on the chain: a supply or withdraw only ever goes to a market whose underlying is the asset's token. */
function marketOf(d: ChainDeployment, protocol: Protocol, asset: TokenAsset): ManifestMarket {
  const m = findMarket(d, protocol, asset);
  if (!m) throw new ServiceError('INVALID_CHAIN', `No ${protocol} ${asset} market on ${d.chain}`, { details: { chain: d.chain, protocol, asset } });
  return m;
}

/** The contract that takes `asset` for `spender`: the Aave Pool or the asset's Comet, or the CCTP token messenger. */
export function spenderAddress(d: ChainDeployment, spender: Spender, asset: TokenAsset): Address {
  if (spender === 'bridge') return d.tokenMessenger;
  const m = marketOf(d, spender, asset);
  return m.protocol === 'aave-v3' ? d.aavePool! : m.comet;
}

/**
 * Encodes a transaction request against one chain's deployment. `sabotage`
 * makes it revert on chain (sandbox fault injection): a burn to an unknown
 * domain, a supply above the allowance.
 */
export function encodeTx(d: ChainDeployment, tx: TxRequest, from: Address, sabotage = false): EncodedTx {
  switch (tx.kind) {
    case 'approve':
    case 'revoke': {
      const spender = spenderAddress(d, tx.spender, tx.asset);
      const amount = tx.kind === 'approve' ? tx.amount : 0n;
      return { to: token(d, tx.asset), data: encodeFunctionData({ abi: sandboxTokenAbi, functionName: 'approve', args: [spender, amount] }) };
    }
    case 'supply': {
      const amount = sabotage ? tx.amount * 2n + 1n : tx.amount;
      const m = marketOf(d, tx.protocol, tx.asset);
      if (m.protocol === 'compound-v3')
        return { to: m.comet, data: encodeFunctionData({ abi: sandboxCometAbi, functionName: 'supply', args: [m.token, amount] }) };
      return { to: d.aavePool!, data: encodeFunctionData({ abi: sandboxPoolAbi, functionName: 'supply', args: [m.token, amount, from, 0] }) };
    }
    case 'withdraw': {
      const amount = tx.amount === 'max' ? maxUint256 : tx.amount;
      const m = marketOf(d, tx.protocol, tx.asset);
      if (m.protocol === 'compound-v3')
        return { to: m.comet, data: encodeFunctionData({ abi: sandboxCometAbi, functionName: 'withdraw', args: [m.token, amount] }) };
      return { to: d.aavePool!, data: encodeFunctionData({ abi: sandboxPoolAbi, functionName: 'withdraw', args: [m.token, amount, from] }) };
    }
    case 'burn': {
      const domain = sabotage ? UNROUTABLE_DOMAIN : CHAINS[tx.toChain].cctpDomain;
      return {
        to: d.tokenMessenger,
        data: encodeFunctionData({
          abi: tokenMessengerV2Abi,
          functionName: 'depositForBurn',
          // destinationCaller bytes32(0): anyone may relay the mint (the service's relayer, or another party).
          args: [tx.amount, domain, pad(from, { size: 32 }), token(d, 'USDC'), zeroHash, tx.maxFee, tx.minFinalityThreshold],
        }),
      };
    }
    case 'mint':
      return {
        to: d.messageTransmitter,
        data: encodeFunctionData({ abi: messageTransmitterV2Abi, functionName: 'receiveMessage', args: [tx.message, tx.attestation] }),
      };
    case 'transfer':
      return { to: token(d, tx.asset), data: encodeFunctionData({ abi: sandboxTokenAbi, functionName: 'transfer', args: [tx.to, tx.amount] }) };
  }
}
