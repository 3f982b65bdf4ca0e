import type { Address } from 'viem';
import { sandboxATokenAbi, sandboxCometAbi, sandboxTokenAbi } from '../sandbox/abis';
import type { TokenAsset } from '../../domain/chains';
import type { ChainHoldings, PositionHolding, TokenHolding } from '../../ports/chain';
import type { ChainClient } from './chainClients';

/** Native, token, aToken and Comet balances of `address` on one chain, read concurrently (one batched round trip). */
export async function readHoldings(c: ChainClient, address: Address): Promise<ChainHoldings> {
  const { client, deployment: d } = c;
  const tokens = Object.entries(d.tokens) as [TokenAsset, Address][];
  const aTokens = Object.entries(d.aTokens) as [TokenAsset, Address][];
  const [native, tokenBalances, aBalances, cometBalance] = await Promise.all([
    client.getBalance({ address }),
    Promise.all(tokens.map(([, token]) => client.readContract({ address: token, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [address] }))),
    Promise.all(aTokens.map(([, aToken]) => client.readContract({ address: aToken, abi: sandboxATokenAbi, functionName: 'balanceOf', args: [address] }))),
    d.comet ? client.readContract({ address: d.comet, abi: sandboxCometAbi, functionName: 'balanceOf', args: [address] }) : Promise.resolve(0n),
  ]);
  const held: TokenHolding[] = [];
  if (native > 0n) held.push({ asset: 'ETH', balance: native });
  tokens.forEach(([asset], i) => {
    const balance = tokenBalances[i] ?? 0n;
    if (balance > 0n) held.push({ asset, balance });
  });
  const positions: PositionHolding[] = [];
  aTokens.forEach(([asset], i) => {
    const amount = aBalances[i] ?? 0n;
    if (amount > 0n) positions.push({ protocol: 'aave-v3', asset, amount });
  });
  if (cometBalance > 0n) positions.push({ protocol: 'compound-v3', asset: 'USDC', amount: cometBalance });
  return { chain: c.name, tokens: held, positions };
}
