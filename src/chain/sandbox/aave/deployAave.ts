import {
  encodeDeployData,
  getContractAddress,
  isAddressEqual,
  maxUint256,
  zeroAddress,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { sandboxPriceFeedAbi, sandboxRateStrategyAbi, sandboxTokenAbi } from '../abis';
import artifacts from '../artifacts.json';
import { apyPercentToAaveRay } from '../../apy';
import { aaveArtifact, aaveCoreVersion, linkBytecode, type AaveContractName } from './aaveArtifacts';
import { readReserve } from './readReserve';
import { CALL_GAS, DEPLOY_GAS, create2Address, startTxSequence, type TxSequence } from './txSequence';

/** One reserve to list. Basis points as Aave takes them (10000 = 100 %). */
export interface AaveReserveInput {
  token: Address;
  decimals: number;
  /** Names the reserve's tokens: `Aave Sandbox USDC` / `aUSDC`, `variableDebtUSDC`, `stableDebtUSDC`. */
  symbol: string;
  /** USD price source with Chainlink's `latestAnswer()` (8 decimals): an existing feed, or an answer for a new SandboxPriceFeed. */
  price: { feed: Address } | { answer: bigint };
  /** Collateral parameters; an LTV of 0 lists the asset as not usable as collateral. Defaults 8000 / 8500 / 10500. */
  ltvBps?: number;
  liquidationThresholdBps?: number;
  liquidationBonusBps?: number;
  /** Variable borrowing enabled (default true). */
  borrowing?: boolean;
  /** Share of interest kept by the treasury (default 1000 = 10 %). */
  reserveFactorBps?: number;
  /** Caps in whole tokens, as Aave stores them (default none). */
  supplyCap?: bigint;
  borrowCap?: bigint;
  /** Target supply APY of the sandbox rate strategy (default 0). It is only paid while the reserve has borrowers. */
  supplyApyPercent?: number;
  /**
   * Atomic units the deployer supplies, then borrows, out of its own balance
   * (mint before deploying): suppliers' interest is paid by this debt, and
   * supplied collateral backs it.
   */
  seed?: { supply: bigint; borrow?: bigint };
}

export interface DeployAaveMarketParameters {
  publicClient: PublicClient<Transport, Chain | undefined>;
  /** The deployer: owner of the provider, ACL admin, pool/risk/emergency/asset-listing admin, owner of the rate strategy and the new feeds. */
  walletClient: WalletClient<Transport, Chain | undefined, Account>;
  /** `L2Pool` (the pool of Aave's L2 markets, e.g. Arbitrum and Base) instead of `Pool`. */
  l2: boolean;
  reserves: readonly AaveReserveInput[];
  /** PoolAddressesProvider market id (default `Sandbox Aave Market`). */
  marketId?: string;
  /** Receives the reserve factor's share as aTokens (default: the deployer). */
  treasury?: Address;
  /**
   * A CREATE2 factory (SandboxCreate2Factory): every contract then sits at an
   * address fixed by the market id, the deployer and the code, whatever the
   * deployer's nonce, and a market already there is reused (nothing is sent;
   * its reserves must include every reserve asked for). Without it, contracts
   * come from the deployer's nonces and each call deploys a new market.
   */
  factory?: Address;
}

/** The addresses of one reserve. */
export interface AaveReserveDeployment {
  token: Address;
  aToken: Address;
  variableDebtToken: Address;
  stableDebtToken: Address;
  priceFeed: Address;
}

export interface AaveMarketDeployment {
  /** `@aave/core-v3` version the code came from. */
  version: string;
  l2: boolean;
  addressesProvider: Address;
  aclManager: Address;
  /** The Pool proxy (what callers use) and its implementation. */
  pool: Address;
  poolImplementation: Address;
  poolConfigurator: Address;
  poolConfiguratorImplementation: Address;
  oracle: Address;
  dataProvider: Address;
  rateStrategy: Address;
  treasury: Address;
  libraries: Record<string, Address>;
  reserves: AaveReserveDeployment[];
  /** What the deployment cost: wall time and transactions sent. */
  stats: { ms: number; transactions: number };
  /** True when the market was already there (CREATE2 only) and nothing was sent. */
  reused: boolean;
}

/** Libraries in deployment order: FlashLoanLogic links BorrowLogic. */
const POOL_LIBRARIES = ['SupplyLogic', 'BorrowLogic', 'LiquidationLogic', 'EModeLogic', 'BridgeLogic', 'PoolLogic', 'FlashLoanLogic'] as const;
/** USD with 8 decimals, as Aave's V3 markets quote (AaveOracle's BASE_CURRENCY = 0x0). */
const BASE_CURRENCY_UNIT = 10n ** 8n;
const DEFAULTS = { ltvBps: 8000, liquidationThresholdBps: 8500, liquidationBonusBps: 10500, reserveFactorBps: 1000 };
/** Aave's `InterestRateMode.VARIABLE`. */
const VARIABLE_RATE = 2n;

/**
 * Deploys an Aave v3 market from the installed `@aave/core-v3` on one devnet,
 * laid out as on the real networks: provider, ACL, linked logic libraries,
 * Pool (or L2Pool) and PoolConfigurator behind the provider's proxies, oracle,
 * data provider, token implementations; lists the reserves with the sandbox
 * rate strategy and seeds them (deployer supplies and borrows). Every
 * transaction is sent without waiting for the one before.
 */
export async function deployAaveMarket(p: DeployAaveMarketParameters): Promise<AaveMarketDeployment> {
  const started = Date.now();
  const art = aaveArtifact;
  const abi = (name: AaveContractName): Abi => art(name).abi;
  const deployer = p.walletClient.account.address;
  const marketId = p.marketId ?? 'Sandbox Aave Market';
  const providerArgs = [marketId, deployer] as const;
  const create2 = p.factory ? { factory: p.factory, saltPrefix: `wallet-intent-sandbox:aave:${marketId}:` } : undefined;
  const reused =
    create2 !== undefined &&
    (await hasCode(
      p.publicClient,
      create2Address(
        create2,
        'PoolAddressesProvider',
        encodeDeployData({ abi: abi('PoolAddressesProvider'), bytecode: art('PoolAddressesProvider').bytecode, args: providerArgs }),
      ).address,
    ));
  // A market already there: the same steps compute its addresses without sending anything.
  const tx = await startTxSequence(p.publicClient, p.walletClient, { create2, dryRun: reused });
  const treasury = p.treasury ?? deployer;

  const provider = await tx.deploy('PoolAddressesProvider', abi('PoolAddressesProvider'), art('PoolAddressesProvider').bytecode, providerArgs);
  await tx.call('setACLAdmin', provider, abi('PoolAddressesProvider'), 'setACLAdmin', [deployer]);
  const aclManager = await tx.deploy('ACLManager', abi('ACLManager'), art('ACLManager').bytecode, [provider]);
  await tx.call('setACLManager', provider, abi('PoolAddressesProvider'), 'setACLManager', [aclManager]);
  for (const role of ['addPoolAdmin', 'addRiskAdmin', 'addEmergencyAdmin', 'addAssetListingAdmin']) {
    await tx.call(role, aclManager, abi('ACLManager'), role, [deployer]);
  }

  const libraries: Record<string, Address> = {};
  for (const name of [...POOL_LIBRARIES, 'ConfiguratorLogic'] as const) {
    const a = art(name);
    libraries[name] = await tx.deploy(name, a.abi, linkBytecode(a.bytecode, a.linkReferences, libraries));
  }

  // The provider creates each proxy on first set, with CREATE from its own nonce (a contract's starts at 1).
  const pool = getContractAddress({ from: provider, nonce: 1n });
  const poolConfigurator = getContractAddress({ from: provider, nonce: 2n });
  const poolName = p.l2 ? 'L2Pool' : 'Pool';
  const poolArt = art(poolName);
  const poolImplementation = await tx.deploy(poolName, poolArt.abi, linkBytecode(poolArt.bytecode, poolArt.linkReferences, libraries), [provider]);
  // As Aave's deployments do: the bare implementation is initialised so that nobody else can.
  await tx.call(`${poolName}.initialize (implementation)`, poolImplementation, poolArt.abi, 'initialize', [provider]);
  await tx.call('setPoolImpl', provider, abi('PoolAddressesProvider'), 'setPoolImpl', [poolImplementation]);
  const confArt = art('PoolConfigurator');
  const poolConfiguratorImplementation = await tx.deploy('PoolConfigurator', confArt.abi, linkBytecode(confArt.bytecode, confArt.linkReferences, libraries));
  await tx.call('PoolConfigurator.initialize (implementation)', poolConfiguratorImplementation, confArt.abi, 'initialize', [provider]);
  await tx.call('setPoolConfiguratorImpl', provider, abi('PoolAddressesProvider'), 'setPoolConfiguratorImpl', [poolConfiguratorImplementation]);

  const priceFeeds: Address[] = [];
  for (const r of p.reserves) priceFeeds.push('feed' in r.price ? r.price.feed : await deployFeed(tx, r.token, `${r.symbol} / USD`, r.price.answer));
  const oracle = await tx.deploy('AaveOracle', abi('AaveOracle'), art('AaveOracle').bytecode, [
    provider,
    p.reserves.map((r) => r.token),
    priceFeeds,
    zeroAddress,
    zeroAddress,
    BASE_CURRENCY_UNIT,
  ]);
  await tx.call('setPriceOracle', provider, abi('PoolAddressesProvider'), 'setPriceOracle', [oracle]);
  const dataProvider = await tx.deploy('AaveProtocolDataProvider', abi('AaveProtocolDataProvider'), art('AaveProtocolDataProvider').bytecode, [provider]);
  await tx.call('setPoolDataProvider', provider, abi('PoolAddressesProvider'), 'setPoolDataProvider', [dataProvider]);

  const aTokenImpl = await tx.deploy('AToken', abi('AToken'), art('AToken').bytecode, [pool]);
  const variableDebtImpl = await tx.deploy('VariableDebtToken', abi('VariableDebtToken'), art('VariableDebtToken').bytecode, [pool]);
  const stableDebtImpl = await tx.deploy('StableDebtToken', abi('StableDebtToken'), art('StableDebtToken').bytecode, [pool]);

  const rateStrategy = await tx.deploy('SandboxRateStrategy', sandboxRateStrategyAbi, artifacts.SandboxRateStrategy.bytecode as Hex, [deployer]);
  for (const r of p.reserves) {
    if (r.supplyApyPercent) {
      await tx.call(`target rate ${r.symbol}`, rateStrategy, sandboxRateStrategyAbi, 'setTargetLiquidityRate', [
        r.token,
        apyPercentToAaveRay(r.supplyApyPercent),
      ]);
    }
  }

  const configurator = abi('PoolConfigurator');
  const inputs = p.reserves.map((r) => ({
    aTokenImpl,
    stableDebtTokenImpl: stableDebtImpl,
    variableDebtTokenImpl: variableDebtImpl,
    underlyingAssetDecimals: r.decimals,
    interestRateStrategyAddress: rateStrategy,
    underlyingAsset: r.token,
    treasury,
    incentivesController: zeroAddress,
    aTokenName: `Aave Sandbox ${r.symbol}`,
    aTokenSymbol: `a${r.symbol}`,
    variableDebtTokenName: `Aave Sandbox Variable Debt ${r.symbol}`,
    variableDebtTokenSymbol: `variableDebt${r.symbol}`,
    stableDebtTokenName: `Aave Sandbox Stable Debt ${r.symbol}`,
    stableDebtTokenSymbol: `stableDebt${r.symbol}`,
    params: '0x',
  }));
  // Each reserve creates three proxies and initialises them.
  await tx.call('initReserves', poolConfigurator, configurator, 'initReserves', [inputs], DEPLOY_GAS / 4n + 2_500_000n * BigInt(inputs.length));

  for (const r of p.reserves) {
    const ltv = r.ltvBps ?? DEFAULTS.ltvBps;
    if (ltv > 0) {
      await tx.call(`collateral ${r.symbol}`, poolConfigurator, configurator, 'configureReserveAsCollateral', [
        r.token,
        BigInt(ltv),
        BigInt(r.liquidationThresholdBps ?? DEFAULTS.liquidationThresholdBps),
        BigInt(r.liquidationBonusBps ?? DEFAULTS.liquidationBonusBps),
      ]);
    }
    if (r.borrowing ?? true) await tx.call(`borrowing ${r.symbol}`, poolConfigurator, configurator, 'setReserveBorrowing', [r.token, true]);
    await tx.call(`reserve factor ${r.symbol}`, poolConfigurator, configurator, 'setReserveFactor', [
      r.token,
      BigInt(r.reserveFactorBps ?? DEFAULTS.reserveFactorBps),
    ]);
    if (r.supplyCap !== undefined) await tx.call(`supply cap ${r.symbol}`, poolConfigurator, configurator, 'setSupplyCap', [r.token, r.supplyCap]);
    if (r.borrowCap !== undefined) await tx.call(`borrow cap ${r.symbol}`, poolConfigurator, configurator, 'setBorrowCap', [r.token, r.borrowCap]);
  }

  // Allowance for every reserve: the seed here, and later the supply that makes a reserve take a new target rate (setSupplyApy).
  for (const r of p.reserves) await tx.call(`approve ${r.symbol}`, r.token, sandboxTokenAbi, 'approve', [pool, maxUint256]);
  for (const r of p.reserves) {
    if (r.seed && r.seed.supply > 0n) await tx.call(`seed supply ${r.symbol}`, pool, poolArt.abi, 'supply', [r.token, r.seed.supply, deployer, 0]);
  }
  for (const r of p.reserves) {
    if (r.seed?.borrow) await tx.call(`seed borrow ${r.symbol}`, pool, poolArt.abi, 'borrow', [r.token, r.seed.borrow, VARIABLE_RATE, 0, deployer]);
  }
  await tx.settle();

  const providerAbi = abi('PoolAddressesProvider');
  const [poolProxy, configuratorProxy] = await Promise.all([
    p.publicClient.readContract({ address: provider, abi: providerAbi, functionName: 'getPool' }) as Promise<Address>,
    p.publicClient.readContract({ address: provider, abi: providerAbi, functionName: 'getPoolConfigurator' }) as Promise<Address>,
  ]);
  if (!isAddressEqual(poolProxy, pool) || !isAddressEqual(configuratorProxy, poolConfigurator)) {
    throw new Error(`deployAaveMarket: the provider's proxies are at ${poolProxy} / ${configuratorProxy}, not ${pool} / ${poolConfigurator}`);
  }
  const reserves = await Promise.all(
    p.reserves.map(async (r, i) => {
      const data = await readReserve(p.publicClient, pool, r.token);
      if (data.aTokenAddress === zeroAddress) throw new Error(`deployAaveMarket: ${r.symbol} (${r.token}) is not listed in the market at ${pool}`);
      return {
        token: r.token,
        aToken: data.aTokenAddress,
        variableDebtToken: data.variableDebtTokenAddress,
        stableDebtToken: data.stableDebtTokenAddress,
        priceFeed: priceFeeds[i]!,
      };
    }),
  );

  return {
    version: aaveCoreVersion(),
    l2: p.l2,
    addressesProvider: provider,
    aclManager,
    pool,
    poolImplementation,
    poolConfigurator,
    poolConfiguratorImplementation,
    oracle,
    dataProvider,
    rateStrategy,
    treasury,
    libraries,
    reserves,
    stats: { ms: Date.now() - started, transactions: tx.count },
    reused,
  };
}

async function hasCode(publicClient: PublicClient<Transport, Chain | undefined>, address: Address): Promise<boolean> {
  const code = await publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}

async function deployFeed(tx: TxSequence, token: Address, description: string, answer: bigint): Promise<Address> {
  const feed = await tx.deploy(`feed ${token}`, sandboxPriceFeedAbi, artifacts.SandboxPriceFeed.bytecode as Hex, [description, tx.sender]);
  await tx.call(`answer ${description}`, feed, sandboxPriceFeedAbi, 'setAnswer', [answer], CALL_GAS);
  return feed;
}
