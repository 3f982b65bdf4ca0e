import { createPublicClient, createWalletClient, getAddress, http, maxUint256, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { aaveRayToApyPercent, SECONDS_PER_YEAR } from '../../src/chain/apy';
import { SANDBOX_KEYS, SANDBOX_NATIVE_BALANCE_WEI } from '../../src/chain/sandbox/accounts';
import { aaveArtifact, librariesOf, linkBytecode, type AaveArtifact } from '../../src/chain/sandbox/aave/aaveArtifacts';
import { deployAaveMarket, type AaveMarketDeployment, type AaveReserveInput } from '../../src/chain/sandbox/aave/deployAave';
import { readReserve } from '../../src/chain/sandbox/aave/readReserve';
import { setSupplyApy } from '../../src/chain/sandbox/aave/setSupplyApy';
import { sandboxCreate2FactoryAbi, sandboxRateStrategyAbi, sandboxTokenAbi } from '../../src/chain/sandbox/abis';
import { aavePoolAbi as sandboxPoolAbi } from '../../src/chain/protocols/aavePoolAbi';
import artifacts from '../../src/chain/sandbox/artifacts.json';
import { startDevnets, type Devnets } from '../../src/chain/sandbox/devnets';
import { RAY } from '../../src/chain/sandbox/initialState';
import { viemChainFor } from '../../src/chain/sandbox/viemChains';
import type { ChainName } from '../../src/domain/chains';

/**
 * Aave v3's own contracts (`@aave/core-v3`) on devnets of this suite's own:
 * the suite moves the clock a year, which no shared devnet may see.
 */
const USER_KEY = generatePrivateKey();
/** EIP-1967 implementation slot (Aave's proxies use it). */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const USER_USDC = parseUnits('10000', 6);

let devnets: Devnets;
beforeAll(async () => {
  devnets = await startDevnets({
    chains: ['ethereum-sepolia', 'base-sepolia'],
    accounts: [SANDBOX_KEYS.deployer, USER_KEY].map((privateKey) => ({ privateKey, balanceWei: SANDBOX_NATIVE_BALANCE_WEI })),
  });
}, 60_000);
afterAll(async () => {
  await devnets?.stop();
});

type Clients = ReturnType<typeof connect>;

function connect(chainName: ChainName) {
  const rpcUrl = devnets.chains[chainName]!.rpcUrl;
  const chain = viemChainFor(chainName, rpcUrl);
  // No retries: a reverted estimate is an answer here, not a transport fault.
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const deployer = createWalletClient({ account: privateKeyToAccount(SANDBOX_KEYS.deployer), chain, transport });
  const user = createWalletClient({ account: privateKeyToAccount(USER_KEY), chain, transport });
  const rpc = (method: string, params: unknown[]) => publicClient.request({ method: method as never, params: params as never });
  return { publicClient, deployer, user, rpc };
}

async function mined(clients: Clients, hash: Promise<Hex>): Promise<Address | null | undefined> {
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe('success');
  return receipt.contractAddress;
}

/** USDC and WETH (the repo's SandboxToken), minted to the deployer for the seed and to the user for one supply. */
async function deployTokens(clients: Clients): Promise<{ usdc: Address; weth: Address }> {
  const { deployer, user } = clients;
  const deployToken = async (name: string, symbol: string, decimals: number) =>
    (await mined(
      clients,
      deployer.deployContract({
        abi: sandboxTokenAbi,
        bytecode: artifacts.SandboxToken.bytecode as Hex,
        args: [name, symbol, decimals, deployer.account.address],
      }),
    ))!;
  const usdc = await deployToken('USD Coin', 'USDC', 6);
  const weth = await deployToken('Wrapped Ether', 'WETH', 18);
  const mint = (token: Address, to: Address, amount: bigint) =>
    mined(clients, deployer.writeContract({ address: token, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] }));
  await mint(usdc, deployer.account.address, parseUnits('2000000', 6));
  await mint(weth, deployer.account.address, parseUnits('2000', 18));
  await mint(usdc, user.account.address, USER_USDC);
  return { usdc, weth };
}

/** Half the seeded USDC is borrowed against WETH: utilisation 50 %, so suppliers are paid by real debt. */
function reserves(usdc: Address, weth: Address): AaveReserveInput[] {
  return [
    {
      token: usdc,
      decimals: 6,
      symbol: 'USDC',
      price: { answer: 1_00000000n },
      supplyApyPercent: 3,
      seed: { supply: parseUnits('1000000', 6), borrow: parseUnits('500000', 6) },
    },
    {
      token: weth,
      decimals: 18,
      symbol: 'WETH',
      price: { answer: 3000_00000000n },
      ltvBps: 8000,
      liquidationThresholdBps: 8250,
      seed: { supply: parseUnits('1000', 18) },
    },
  ];
}

describe.each([
  ['ethereum-sepolia', false],
  ['base-sepolia', true],
] as [ChainName, boolean][])('Aave v3 market on %s (L2Pool: %s)', (chainName, l2) => {
  let market: AaveMarketDeployment;
  let usdc: Address;
  let weth: Address;
  let aUsdc: Address;
  let clients: Clients;

  const balanceOf = (token: Address, owner: Address) =>
    clients.publicClient.readContract({ address: token, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [owner] });

  beforeAll(async () => {
    clients = connect(chainName);
    ({ usdc, weth } = await deployTokens(clients));
    market = await deployAaveMarket({ publicClient: clients.publicClient, walletClient: clients.deployer, l2, reserves: reserves(usdc, weth) });
    aUsdc = market.reserves[0]!.aToken;
    console.log(`aave ${market.version} ${l2 ? 'L2Pool' : 'Pool'} on ${chainName}: ${market.stats.transactions} transactions in ${market.stats.ms} ms`);
  }, 120_000);

  test('behavior: the Pool proxy runs the package implementation, registered with the provider', async () => {
    const { publicClient } = clients;
    const slot = await publicClient.getStorageAt({ address: market.pool, slot: IMPLEMENTATION_SLOT });
    expect(getAddress(`0x${slot!.slice(-40)}`)).toBe(market.poolImplementation);
    const artifact = aaveArtifact(l2 ? 'L2Pool' : 'Pool');
    const code = await publicClient.getCode({ address: market.poolImplementation });
    expect(maskedDifferences(artifact, code!, market.libraries, market.addressesProvider)).toEqual([]);
    // The libraries the artifact links are the ones deployed.
    expect(librariesOf(artifact.deployedLinkReferences).sort()).toEqual([
      'BorrowLogic',
      'BridgeLogic',
      'EModeLogic',
      'FlashLoanLogic',
      'LiquidationLogic',
      'PoolLogic',
      'SupplyLogic',
    ]);
    const revision = await publicClient.readContract({ address: market.pool, abi: artifact.abi, functionName: 'POOL_REVISION' });
    expect(revision).toBe(1n);
  });

  test('behavior: getReserveData decoded positionally (the service ABI) names the aToken and a rate paid by the seeded debt', async () => {
    const data = await clients.publicClient.readContract({ address: market.pool, abi: sandboxPoolAbi, functionName: 'getReserveData', args: [usdc] });
    expect(data.aTokenAddress).toBe(aUsdc);
    expect(data.interestRateStrategyAddress).toBe(market.rateStrategy);
    expect(aaveRayToApyPercent(data.currentLiquidityRate)).toBeCloseTo(3, 6);
    // At 50 % utilisation and a 10 % reserve factor borrowers pay target / (0.5 × 0.9).
    expect(Number(data.currentVariableBorrowRate) / Number(data.currentLiquidityRate)).toBeCloseTo(1 / 0.45, 6);
    const own = await readReserve(clients.publicClient, market.pool, usdc);
    expect(own.currentLiquidityRate).toBe(data.currentLiquidityRate);
    expect(own.aTokenAddress).toBe(aUsdc);
  });

  test('behavior: a new target shows only once the Pool touches the reserve; re-setting the strategy address does not', async () => {
    const { publicClient, deployer } = clients;
    const rateBefore = (await readReserve(publicClient, market.pool, usdc)).currentLiquidityRate;
    await mined(
      clients,
      deployer.writeContract({
        address: market.rateStrategy,
        abi: sandboxRateStrategyAbi,
        functionName: 'setTargetLiquidityRate',
        args: [usdc, rateBefore * 2n],
      }),
    );
    await mined(
      clients,
      deployer.writeContract({
        address: market.poolConfigurator,
        abi: aaveArtifact('PoolConfigurator').abi,
        functionName: 'setReserveInterestRateStrategyAddress',
        args: [usdc, market.rateStrategy],
      }),
    );
    expect((await readReserve(publicClient, market.pool, usdc)).currentLiquidityRate).toBe(rateBefore);
    const { liquidityRate } = await setSupplyApy({ publicClient, walletClient: deployer, market, asset: usdc, apyPercent: 4 });
    expect(aaveRayToApyPercent(liquidityRate)).toBeCloseTo(4, 6);
  });

  // Aave calls send a fixed gas limit: estimated in one second of the devnet's clock and mined in the next, a reserve accrues and needs more.
  test('behavior: a user supplies USDC, earns the 5 % APY set by the admin over a year, and withdraws it all with max', async () => {
    const { publicClient, deployer, user, rpc } = clients;
    const me = user.account.address;
    await mined(clients, user.writeContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'approve', args: [market.pool, USER_USDC] }));
    await mined(
      clients,
      user.writeContract({ address: market.pool, abi: aaveArtifact('Pool').abi, functionName: 'supply', args: [usdc, USER_USDC, me, 0], gas: 1_000_000n }),
    );
    expect(await balanceOf(usdc, me)).toBe(0n);
    const supplied = await balanceOf(aUsdc, me);
    expect(supplied).toBeGreaterThanOrEqual(USER_USDC - 1n);
    expect(supplied).toBeLessThanOrEqual(USER_USDC);

    const { liquidityRate } = await setSupplyApy({ publicClient, walletClient: deployer, market, asset: usdc, apyPercent: 5 });
    expect(aaveRayToApyPercent(liquidityRate)).toBeCloseTo(5, 6);
    expect((await readReserve(publicClient, market.pool, usdc)).currentLiquidityRate).toBe(liquidityRate);

    const before = await balanceOf(aUsdc, me);
    const t0 = (await publicClient.getBlock()).timestamp;
    // Untouched, the index grows linearly (Aave's MathUtils): by the APR over a year, 4.879 % for a 5 % APY.
    const accrued = (t: bigint) => before + (before * liquidityRate * (t - t0)) / (RAY * BigInt(SECONDS_PER_YEAR));
    await rpc('evm_increaseTime', [SECONDS_PER_YEAR]);
    await rpc('evm_mine', []);
    const t1 = (await publicClient.getBlock()).timestamp;
    const after = await balanceOf(aUsdc, me);
    expect(abs(after - accrued(t1))).toBeLessThanOrEqual(2n);
    const growthPercent = (Number(after - before) / Number(before)) * 100;
    expect(growthPercent).toBeGreaterThan(4.8);
    expect(growthPercent).toBeLessThan(5.01);

    const hash = await user.writeContract({
      address: market.pool,
      abi: aaveArtifact('Pool').abi,
      functionName: 'withdraw',
      args: [usdc, maxUint256, me],
      gas: 1_000_000n,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(aUsdc, me)).toBe(0n);
    const withdrawnAt = (await publicClient.getBlock({ blockHash: receipt.blockHash })).timestamp;
    expect(abs((await balanceOf(usdc, me)) - accrued(withdrawnAt))).toBeLessThanOrEqual(2n);
  });

  test('behavior: without borrowers a target APY pays nothing (suppliers are only paid by debt)', async () => {
    const { liquidityRate } = await setSupplyApy({ publicClient: clients.publicClient, walletClient: clients.deployer, market, asset: weth, apyPercent: 3 });
    expect(liquidityRate).toBe(0n);
  });

  test('error: only the strategy owner sets a target', async () => {
    await expect(
      clients.user.writeContract({ address: market.rateStrategy, abi: sandboxRateStrategyAbi, functionName: 'setTargetLiquidityRate', args: [usdc, RAY] }),
    ).rejects.toThrow(/NotOwner/);
  });
});

describe('Aave v3 market through a CREATE2 factory', () => {
  test('behavior: deploying again through the factory reuses the market: the same addresses, no transaction', async () => {
    const clients = connect('ethereum-sepolia');
    const { usdc, weth } = await deployTokens(clients);
    const factory = (await mined(
      clients,
      clients.deployer.deployContract({ abi: sandboxCreate2FactoryAbi, bytecode: artifacts.SandboxCreate2Factory.bytecode as Hex }),
    ))!;
    const params = {
      publicClient: clients.publicClient,
      walletClient: clients.deployer,
      l2: false,
      reserves: reserves(usdc, weth),
      factory,
      marketId: 'CREATE2 market',
    };
    const first = await deployAaveMarket(params);
    expect(first.reused).toBe(false);
    expect(first.stats.transactions).toBeGreaterThan(40);
    console.log(`aave through CREATE2: ${first.stats.transactions} transactions in ${first.stats.ms} ms`);
    const { stats: _s1, reused: _r1, ...addresses } = first;
    const again = await deployAaveMarket(params);
    expect(again.reused).toBe(true);
    expect(again.stats.transactions).toBe(0);
    const { stats: _s2, reused: _r2, ...sameAddresses } = again;
    expect(sameAddresses).toEqual(addresses);
    expect(aaveRayToApyPercent((await readReserve(clients.publicClient, again.pool, usdc)).currentLiquidityRate)).toBeCloseTo(3, 6);
    // A reserve the existing market does not list is an error, not a silent partial market.
    const { usdc: other } = await deployTokens(clients);
    await expect(deployAaveMarket({ ...params, reserves: [{ ...reserves(other, weth)[0]!, seed: undefined }] })).rejects.toThrow(/not listed/);
  });
});

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/**
 * Bytes where the deployed runtime code differs from the artifact's
 * `deployedBytecode` linked to the deployed libraries, other than the
 * immutable `ADDRESSES_PROVIDER` (32-byte words the compiler leaves zero in
 * the artifact and the constructor fills with the provider's address).
 */
function maskedDifferences(artifact: AaveArtifact, deployed: Hex, libraries: Record<string, Address>, provider: Address): string[] {
  const expected = linkBytecode(artifact.deployedBytecode, artifact.deployedLinkReferences, libraries).slice(2).toLowerCase();
  const actual = deployed.slice(2).toLowerCase();
  if (expected.length !== actual.length) return [`length ${actual.length / 2} ≠ ${expected.length / 2}`];
  const masked = new Array<boolean>(expected.length / 2).fill(false);
  const providerWord = provider.slice(2).toLowerCase().padStart(64, '0');
  for (let at = actual.indexOf(providerWord); at >= 0; at = actual.indexOf(providerWord, at + 2)) {
    if (at % 2 === 0 && expected.slice(at, at + 64) === '0'.repeat(64)) masked.fill(true, at / 2, at / 2 + 32);
  }
  const diffs: string[] = [];
  for (let i = 0; i < masked.length; i++) {
    if (!masked[i] && expected.slice(2 * i, 2 * i + 2) !== actual.slice(2 * i, 2 * i + 2)) diffs.push(`byte ${i}`);
  }
  return diffs.slice(0, 10);
}
