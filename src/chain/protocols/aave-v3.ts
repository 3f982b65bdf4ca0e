import { encodeFunctionData, maxUint256, parseAbi, type Address } from 'viem';
import { z } from 'zod';
import { invalidChain } from '../../domain/errors/chain';
import { ASSET_DECIMALS, type ChainName, type TokenAsset } from '../../domain/chains';
import type { ChainDeployment, ManifestMarket } from '../../ports/deploymentManifest';
import { aaveRayToApyPercent } from '../apy';
import { deployAaveMarket } from '../sandbox/aave/deployAave';
import { setSupplyApy } from '../sandbox/aave/setSupplyApy';
import { SANDBOX_ETH_USD_ANSWER, aprToRay, sandboxLiquidity, sandboxPoolApr } from '../sandbox/initialState';
import { aavePoolAbi } from './aavePoolAbi';
import { addressOf } from './marketFields';
import type { LendingProtocolModule, ProtocolReader, SandboxDeployContext } from './types';

const aTokenAbi = parseAbi(['function UNDERLYING_ASSET_ADDRESS() view returns (address)']);

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

/** The chain's Aave Pool (one per chain, behind every reserve). */
function poolOf(d: ChainDeployment): Address {
  if (!d.aavePool) throw new Error(`${d.chain}: an Aave market but no aavePool in the deployment manifest`);
  return d.aavePool;
}

/** Aave's L2 markets (Arbitrum, Base) run `L2Pool`; Ethereum's runs `Pool`. */
const AAVE_L2: Readonly<Record<ChainName, boolean>> = {
  ethereum: false,
  arbitrum: true,
  base: true,
  'ethereum-sepolia': false,
  'arbitrum-sepolia': true,
  'base-sepolia': true,
};

/** Share of each reserve's seed the deployer borrows back: the debt whose interest pays suppliers. */
const SEED_UTILIZATION_PERCENT = 50n;

/**
 * Aave v3: one Pool per chain, a reserve per token, the position an aToken
 * (its balance grows with the reserve's normalized income).
 */
export const aaveV3: LendingProtocolModule = {
  name: 'aave-v3',
  marketFields: { aToken: address },
  deploymentFields: { aavePool: address.nullable(), aaveRateStrategy: address.optional() },
  checkMarket: (d) => (d.aavePool === null ? 'needs aavePool' : null),
  // measured 226,030 on ethereum-sepolia's Pool (a wallet's first supply; L2Pool 204,142), withdraw max 168,819
  typicalGas: { supply: 226_100n, withdraw: 168_900n },

  spender: (d) => poolOf(d),
  position: (m) => addressOf(m, 'aToken'),
  supplyCall: (d, m, amount, onBehalfOf) => ({
    to: poolOf(d),
    data: encodeFunctionData({ abi: aavePoolAbi, functionName: 'supply', args: [m.token, amount, onBehalfOf, 0] }),
  }),
  supplyWithPermitCall: (d, m, amount, onBehalfOf, p) => ({
    to: poolOf(d),
    data: encodeFunctionData({
      abi: aavePoolAbi,
      functionName: 'supplyWithPermit',
      args: [m.token, amount, onBehalfOf, 0, p.deadline, p.v, p.r, p.s],
    }),
  }),
  withdrawCall: (d, m, amount, to) => ({
    to: poolOf(d),
    data: encodeFunctionData({ abi: aavePoolAbi, functionName: 'withdraw', args: [m.token, amount === 'max' ? maxUint256 : amount, to] }),
  }),

  async readApy({ client, deployment }, m) {
    const reserve = await client.readContract({ address: poolOf(deployment), abi: aavePoolAbi, functionName: 'getReserveData', args: [m.token] });
    return aaveRayToApyPercent(BigInt(reserve.currentLiquidityRate));
  },
  async readSupplyIndex({ client, deployment }, m, blockNumber) {
    const at = blockNumber === undefined ? {} : { blockNumber };
    const income = await client.readContract({
      address: poolOf(deployment),
      abi: aavePoolAbi,
      functionName: 'getReserveNormalizedIncome',
      args: [m.token],
      ...at,
    });
    return BigInt(income as bigint);
  },
  readLentToken: (r: ProtocolReader, m: ManifestMarket) =>
    r.client.readContract({ address: addressOf(m, 'aToken'), abi: aTokenAbi, functionName: 'UNDERLYING_ASSET_ADDRESS' }),

  sandbox: {
    async deploy(ctx, slots) {
      if (slots.length === 0) return { markets: [] };
      const aave = await deployAave(
        ctx,
        slots.map((s) => [s.asset, s.token] as const),
      );
      return {
        markets: slots.map((s, i) => ({
          protocol: 'aave-v3',
          asset: s.asset,
          token: s.token,
          aToken: aave.aTokens[i]!,
          ...(s.sandboxOnly && { sandboxOnly: true as const }),
        })),
        deployment: { aavePool: aave.pool, aaveRateStrategy: aave.rateStrategy },
      };
    },
    async setRate({ reader, wallet, market, apy }) {
      const rateStrategy = reader.deployment.aaveRateStrategy;
      if (!rateStrategy) throw invalidChain(reader.name, { reason: `the aave-v3 market on ${reader.name} has no sandbox rate strategy` });
      // Aave's Pool takes a new rate only when one of its own actions touches the reserve: setSupplyApy sets the target, then pokes it.
      const { txHashes } = await setSupplyApy({
        publicClient: reader.client,
        walletClient: wallet,
        market: { pool: poolOf(reader.deployment), rateStrategy },
        asset: market.token,
        apyPercent: apy,
      });
      return txHashes.at(-1)!;
    },
  },
};

/**
 * Aave v3's own code (`@aave/core-v3`) listing the layout's reserves, through
 * the CREATE2 factory so a redeploy on the same chain finds the market where
 * it left it. The deployer supplies each token's liquidity seed and borrows
 * half of it back, so a supplier's interest is paid by real debt at the rate
 * the sandbox rate strategy is told (`SANDBOX_POOL_APR`, the admin rate control).
 */
async function deployAave(ctx: SandboxDeployContext, listed: readonly (readonly [TokenAsset, Address])[]) {
  for (const [asset, token] of listed) await ctx.ensureLiquidity(token, ctx.owner, sandboxLiquidity(asset));
  const market = await deployAaveMarket({
    publicClient: ctx.public,
    walletClient: ctx.wallet,
    l2: AAVE_L2[ctx.name],
    factory: ctx.factory,
    reserves: listed.map(([asset, token]) => {
      const seed = sandboxLiquidity(asset);
      return {
        token,
        decimals: ASSET_DECIMALS[asset],
        symbol: asset,
        price: { answer: asset === 'WETH' ? SANDBOX_ETH_USD_ANSWER : 1_00000000n },
        supplyApyPercent: aaveRayToApyPercent(aprToRay(sandboxPoolApr(ctx.name, asset))),
        seed: { supply: seed, borrow: (seed * SEED_UTILIZATION_PERCENT) / 100n },
      };
    }),
  });
  return { pool: market.pool, aTokens: market.reserves.map((r) => r.aToken), rateStrategy: market.rateStrategy };
}
