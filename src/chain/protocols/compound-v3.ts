import { encodeDeployData, encodeFunctionData, getContract, maxUint256 } from 'viem';
import { z } from 'zod';
import { SUPPLY_INDEX_ONE } from '../../ports/chain';
import { apyPercentToCometRate, cometRateToApyPercent } from '../apy';
import { sandboxCometAbi } from '../sandbox/abis';
import { SANDBOX_COMET_APR, SANDBOX_DEFAULT_POOL_APR, aprToCometRatePerSecond, sandboxLiquidity } from '../sandbox/initialState';
import { addressOf } from './marketFields';
import type { LendingProtocolModule } from './types';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

/** Comet's indices are scaled 1e18 in the sandbox market; the port speaks ray (1e27). */
const COMET_TO_RAY = SUPPLY_INDEX_ONE / 10n ** 18n;

/**
 * Compound III: one Comet per base token, market and position in one
 * contract (its `balanceOf` is the supplier's present value). The calls use
 * Comet's own signatures (`supply(asset, amount)`, `withdraw(asset, amount)`),
 * which the sandbox's SandboxComet implements.
 */
export const compoundV3: LendingProtocolModule = {
  name: 'compound-v3',
  marketFields: { comet: address },
  // measured 109,020 (a wallet's first supply), withdraw max 59,156
  typicalGas: { supply: 109_100n, withdraw: 59_200n },

  spender: (_d, m) => addressOf(m, 'comet'),
  position: (m) => addressOf(m, 'comet'),
  supplyCall: (_d, m, amount) => ({
    to: addressOf(m, 'comet'),
    data: encodeFunctionData({ abi: sandboxCometAbi, functionName: 'supply', args: [m.token, amount] }),
  }),
  withdrawCall: (_d, m, amount) => ({
    to: addressOf(m, 'comet'),
    data: encodeFunctionData({ abi: sandboxCometAbi, functionName: 'withdraw', args: [m.token, amount === 'max' ? maxUint256 : amount] }),
  }),

  async readApy({ client }, m) {
    const comet = addressOf(m, 'comet');
    const utilization = await client.readContract({ address: comet, abi: sandboxCometAbi, functionName: 'getUtilization' });
    return cometRateToApyPercent(
      BigInt(await client.readContract({ address: comet, abi: sandboxCometAbi, functionName: 'getSupplyRate', args: [utilization] })),
    );
  },
  /** Comet's base supply index brought up to the block's time the way its own accrual does (index + index × rate × Δt / 1e18). */
  async readSupplyIndex({ client }, m, blockNumber) {
    const comet = addressOf(m, 'comet');
    const at = blockNumber === undefined ? {} : { blockNumber };
    const read = <F extends 'baseSupplyIndex' | 'lastAccrualTime'>(functionName: F) =>
      client.readContract({ address: comet, abi: sandboxCometAbi, functionName, ...at });
    const [index, lastAccrual, rate, block] = await Promise.all([
      read('baseSupplyIndex'),
      read('lastAccrualTime'),
      client.readContract({ address: comet, abi: sandboxCometAbi, functionName: 'getSupplyRate', args: [0n], ...at }),
      client.getBlock(blockNumber === undefined ? {} : { blockNumber }),
    ]);
    const base = BigInt(index);
    const elapsed = block.timestamp - BigInt(lastAccrual);
    return (base + (base * BigInt(rate) * (elapsed > 0n ? elapsed : 0n)) / 10n ** 18n) * COMET_TO_RAY;
  },
  readLentToken: ({ client }, m) => client.readContract({ address: addressOf(m, 'comet'), abi: sandboxCometAbi, functionName: 'baseToken' }),

  sandbox: {
    async deploy(ctx, slots) {
      const markets = [];
      for (const s of slots) {
        const comet = await ctx.create2(
          `comet:${s.asset}`,
          encodeDeployData({ abi: sandboxCometAbi, bytecode: ctx.bytecodeOf('SandboxComet'), args: [s.token, ctx.owner] }),
        );
        const market = getContract({ address: comet, abi: sandboxCometAbi, client: { public: ctx.public, wallet: ctx.wallet } });
        if ((await market.read.supplyRatePerSecond()) === 0n) {
          await ctx.confirm(market.write.setSupplyRate([aprToCometRatePerSecond(SANDBOX_COMET_APR[ctx.name] ?? SANDBOX_DEFAULT_POOL_APR)]));
        }
        await ctx.ensureLiquidity(s.token, comet, sandboxLiquidity(s.asset));
        markets.push({ protocol: 'compound-v3' as const, asset: s.asset, token: s.token, comet, ...(s.sandboxOnly && { sandboxOnly: true as const }) });
      }
      return { markets };
    },
    async setRate({ reader, wallet, market, apy }) {
      const hash = await wallet.writeContract({
        address: addressOf(market, 'comet'),
        abi: sandboxCometAbi,
        functionName: 'setSupplyRate',
        args: [apyPercentToCometRate(apy)],
        account: wallet.account,
        chain: wallet.chain,
      });
      await reader.client.waitForTransactionReceipt({ hash });
      return hash;
    },
  },
};
