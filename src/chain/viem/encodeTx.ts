import { encodeFunctionData, pad, zeroHash, type Address } from 'viem';
import { messageTransmitterV2Abi, sandboxTokenAbi, tokenMessengerV2Abi } from '../sandbox/abis';
import { CHAINS } from '../../domain/chains';
import type { TokenAsset } from '../../domain/chains';
import type { Protocol, Spender, TxRequest } from '../../ports/chain';
import { findMarket, type ChainDeployment, type ManifestMarket } from '../../ports/deploymentManifest';
import { ServiceError } from '../../domain/errors/base';
import { approveCall } from '../protocols/calls';
import type { ProtocolRegistry } from '../protocols/registry';
import type { Call, TokenPermit } from '../protocols/types';

export type EncodedTx = Call;

/** A chain's deployment with the protocol modules its markets are called with (a ChainClient is one). */
export interface EncodingContext {
  deployment: ChainDeployment;
  protocols: ProtocolRegistry;
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

/** The contract that takes `asset` for `spender`: the protocol's spender of the asset's market (its module says which), or the CCTP token messenger. */
export function spenderAddress(c: EncodingContext, spender: Spender, asset: TokenAsset): Address {
  const d = c.deployment;
  if (spender === 'bridge') return d.tokenMessenger;
  return c.protocols.get(spender).spender(d, marketOf(d, spender, asset));
}

/**
 * Encodes a transaction request against one chain's deployment; a supply or
 * withdraw is its protocol module's call. A supply given `permit` (signed by
 * the sender for it, src/chain/viem/permit.ts) is the module's permit supply.
 */
export function encodeTx(c: EncodingContext, tx: TxRequest, from: Address, permit?: TokenPermit): EncodedTx {
  const d = c.deployment;
  switch (tx.kind) {
    case 'approve':
    case 'revoke':
      return approveCall(token(d, tx.asset), spenderAddress(c, tx.spender, tx.asset), tx.kind === 'approve' ? tx.amount : 0n);
    case 'supply': {
      const module = c.protocols.get(tx.protocol);
      const market = marketOf(d, tx.protocol, tx.asset);
      if (permit === undefined) return module.supplyCall(d, market, tx.amount, from);
      if (!module.supplyWithPermitCall) {
        throw new ServiceError('INTERNAL_ERROR', `${tx.protocol} takes no permit supply`, { details: { chain: d.chain, protocol: tx.protocol } });
      }
      return module.supplyWithPermitCall(d, market, tx.amount, from, permit);
    }
    case 'withdraw':
      return c.protocols.get(tx.protocol).withdrawCall(d, marketOf(d, tx.protocol, tx.asset), tx.amount, from);
    case 'burn': {
      const domain = CHAINS[tx.toChain].cctpDomain;
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
