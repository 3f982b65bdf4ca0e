import { defineChain, type Chain } from 'viem';
import { arbitrum, arbitrumSepolia, base, baseSepolia, mainnet, sepolia } from 'viem/chains';
import type { ChainName } from '../../domain/chains';

const VIEM_CHAINS: Readonly<Record<ChainName, Chain>> = {
  ethereum: mainnet,
  arbitrum,
  base,
  'ethereum-sepolia': sepolia,
  'arbitrum-sepolia': arbitrumSepolia,
  'base-sepolia': baseSepolia,
};

/** viem's chain object for `name` (sepolia, arbitrumSepolia, baseSepolia, …) with the RPC URL overridden. */
export function viemChainFor(name: ChainName, rpcUrl: string): Chain {
  return defineChain({ ...VIEM_CHAINS[name], rpcUrls: { default: { http: [rpcUrl] } } });
}
