import { randomBytes } from 'node:crypto';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeAbiParameters,
  encodeFunctionData,
  http,
  parseEther,
  parseEventLogs,
  parseSignature,
  parseUnits,
  toHex,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { ASSET_DECIMALS, CHAINS, type ChainName, type TokenAsset } from '../../src/domain/chains';
import { sandboxCometAbi, sandboxPriceFeedAbi, sandboxTokenAbi, sandboxTokenAbi as sandboxATokenAbi } from '../../src/chain/sandbox/abis';
import { aavePoolAbi as sandboxPoolAbi } from '../../src/chain/protocols/aavePoolAbi';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS, SANDBOX_MNEMONIC } from '../../src/chain/sandbox/accounts';
import { CIRCLE_USDC, deploySandbox } from '../../src/chain/sandbox/deploy';
import {
  RAY,
  SANDBOX_COMET_APR,
  SANDBOX_ETH_USD_ANSWER,
  SECONDS_PER_YEAR,
  aprToCometRatePerSecond,
  aprToRay,
  sandboxPoolApr,
} from '../../src/chain/sandbox/initialState';
import { viemChainFor } from '../../src/chain/sandbox/viemChains';
import { withDeployGas } from '../../src/chain/sandbox/deployGas';
import { loadSandboxManifest, sandboxChain } from '../setup/sandbox';

const manifest = loadSandboxManifest();
const CHAIN_LIST = Object.keys(manifest.chains) as ChainName[];

/** Clients for one sandbox chain. The faucet is a node-managed account (eth_sendTransaction), so the
 *  node assigns its nonces and parallel test files cannot collide on them. */
function env(name: ChainName) {
  const d = sandboxChain(manifest, name);
  const chain = viemChainFor(name, d.rpcUrl);
  // Hardhat answers reverts with JSON-RPC code -32603, which viem retries 3 times (~1 s) by default.
  // A connection the node closes as idle just as a call reuses it is retried (seen once on a loaded machine as "fetch failed").
  const transport = http(d.rpcUrl, { retryCount: 2, retryDelay: 50 });
  return {
    d,
    chain,
    transport,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 20 }),
    testClient: createTestClient({ mode: 'hardhat', chain, transport }),
    faucet: createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain, transport }),
  };
}
type Env = ReturnType<typeof env>;

/** A fresh funded account, so tests do not share nonces or balances. */
async function newUser(e: Env) {
  const account = privateKeyToAccount(generatePrivateKey());
  await e.testClient.setBalance({ address: account.address, value: parseEther('10') });
  return { account, address: account.address, wallet: withDeployGas(createWalletClient({ account, chain: e.chain, transport: e.transport })) };
}

async function mined(e: Env, hash: Hash) {
  const receipt = await e.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

function tokenOf(e: Env, asset: TokenAsset): Address {
  const token = e.d.tokens[asset];
  if (!token) throw new Error(`${e.d.chain} has no ${asset}`);
  return token;
}

function aTokenOf(e: Env, asset: TokenAsset): Address {
  const m = e.d.markets.find((x) => x.protocol === 'aave-v3' && x.asset === asset);
  if (!m || m.protocol !== 'aave-v3') throw new Error(`${e.d.chain} has no aave-v3 ${asset} market`);
  return m.aToken as Address;
}

function cometOf(e: Env): Address {
  const m = e.d.markets.find((x) => x.protocol === 'compound-v3');
  if (!m || m.protocol !== 'compound-v3') throw new Error(`${e.d.chain} has no Comet`);
  return m.comet as Address;
}

async function mint(e: Env, token: Address, to: Address, amount: bigint): Promise<void> {
  await mined(e, await e.faucet.writeContract({ address: token, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] }));
}

async function balanceOf(e: Env, token: Address, owner: Address): Promise<bigint> {
  return e.publicClient.readContract({ address: token, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [owner] });
}

async function chainTime(e: Env): Promise<bigint> {
  return (await e.publicClient.getBlock()).timestamp;
}

async function blockTime(e: Env, blockNumber: bigint): Promise<bigint> {
  return (await e.publicClient.getBlock({ blockNumber })).timestamp;
}

describe('sandbox tokens', () => {
  it('behavior: every chain has its the API tokens with the right decimals, and base-sepolia has no DAI or USDT', async () => {
    expect([...CHAIN_LIST].sort()).toEqual(['arbitrum-sepolia', 'base-sepolia', 'ethereum-sepolia']);
    for (const name of CHAIN_LIST) {
      const e = env(name);
      expect(Object.keys(e.d.tokens).sort()).toEqual([...CHAINS[name].tokens].sort());
      for (const [asset, token] of Object.entries(e.d.tokens) as [TokenAsset, Address][]) {
        const decimals = await e.publicClient.readContract({ address: token, abi: sandboxTokenAbi, functionName: 'decimals' });
        expect(decimals).toBe(ASSET_DECIMALS[asset]);
        expect(await e.publicClient.readContract({ address: token, abi: sandboxTokenAbi, functionName: 'symbol' })).toBe(asset);
      }
      const usdc = tokenOf(e, 'USDC');
      // Circle's FiatTokenV2_2: EIP-712 domain name "USDC", version "2", as on the public test networks
      expect(await e.publicClient.readContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'name' })).toBe('USDC');
      expect(await e.publicClient.readContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'version' })).toBe('2');
    }
    expect(sandboxChain(manifest, 'base-sepolia').tokens.DAI).toBeUndefined();
    expect(sandboxChain(manifest, 'base-sepolia').tokens.USDT).toBeUndefined();
    expect(sandboxChain(manifest, 'base-sepolia').markets.filter((m) => m.protocol === 'compound-v3')).toEqual([]);
  });

  it('behavior: sandbox keys are hardhat accounts #0..#3 and are funded with native ETH on every chain', async () => {
    const roles = ['deployer', 'faucet', 'gasTank', 'attester'] as const;
    roles.forEach((role, i) => {
      expect(mnemonicToAccount(SANDBOX_MNEMONIC, { addressIndex: i }).address).toBe(SANDBOX_ADDRESSES[role]);
      expect(privateKeyToAccount(SANDBOX_KEYS[role]).address).toBe(SANDBOX_ADDRESSES[role]);
    });
    for (const name of CHAIN_LIST) {
      const e = env(name);
      for (const role of roles) {
        expect(await e.publicClient.getBalance({ address: SANDBOX_ADDRESSES[role] })).toBeGreaterThan(parseEther('1000'));
      }
    }
  });

  it('behavior: the faucet mints and a holder transfers', async () => {
    const e = env('arbitrum-sepolia');
    const usdc = tokenOf(e, 'USDC');
    const [alice, bob] = [await newUser(e), await newUser(e)];
    await mint(e, usdc, alice.address, 100_000_000n);
    await mined(e, await alice.wallet.writeContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'transfer', args: [bob.address, 40_000_000n] }));
    expect(await balanceOf(e, usdc, alice.address)).toBe(60_000_000n);
    expect(await balanceOf(e, usdc, bob.address)).toBe(40_000_000n);
  });

  it('error: a non-minter cannot mint', async () => {
    const e = env('arbitrum-sepolia');
    const mallory = await newUser(e);
    await expect(
      e.publicClient.simulateContract({
        account: mallory.account,
        address: tokenOf(e, 'USDC'),
        abi: sandboxTokenAbi,
        functionName: 'mint',
        args: [mallory.address, 1n],
      }),
    ).rejects.toThrow(/FiatToken: caller is not a minter/);
  });

  it('behavior: EIP-2612 permit lets a spender pull tokens', async () => {
    const e = env('base-sepolia');
    const usdc = tokenOf(e, 'USDC');
    const [owner, spender] = [await newUser(e), await newUser(e)];
    await mint(e, usdc, owner.address, 5_000_000n);
    const nonce = await e.publicClient.readContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'nonces', args: [owner.address] });
    const deadline = (await chainTime(e)) + 3600n;
    const signature = await owner.account.signTypedData({
      domain: { name: 'USDC', version: '2', chainId: e.d.chainId, verifyingContract: usdc },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: { owner: owner.address, spender: spender.address, value: 3_000_000n, nonce, deadline },
    });
    const { v, r, s } = parseSignature(signature);
    await mined(
      e,
      await spender.wallet.writeContract({
        address: usdc,
        abi: sandboxTokenAbi,
        functionName: 'permit',
        args: [owner.address, spender.address, 3_000_000n, deadline, Number(v), r, s],
      }),
    );
    expect(await e.publicClient.readContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'nonces', args: [owner.address] })).toBe(nonce + 1n);
    await mined(
      e,
      await spender.wallet.writeContract({
        address: usdc,
        abi: sandboxTokenAbi,
        functionName: 'transferFrom',
        args: [owner.address, spender.address, 3_000_000n],
      }),
    );
    expect(await balanceOf(e, usdc, spender.address)).toBe(3_000_000n);
    expect(await balanceOf(e, usdc, owner.address)).toBe(2_000_000n);
  });

  describe('EIP-3009 transferWithAuthorization', () => {
    const TYPES = {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    } as const;

    async function setup(validFor: bigint) {
      const e = env('base-sepolia');
      const usdc = tokenOf(e, 'USDC');
      const [payer, payee, relayer] = [await newUser(e), await newUser(e), await newUser(e)];
      await mint(e, usdc, payer.address, 10_000_000n);
      const authorization = {
        from: payer.address,
        to: payee.address,
        value: 1_250_000n,
        validAfter: 0n,
        validBefore: (await chainTime(e)) + validFor,
        nonce: toHex(randomBytes(32)),
      };
      const signature = await payer.account.signTypedData({
        domain: { name: 'USDC', version: '2', chainId: e.d.chainId, verifyingContract: usdc },
        types: TYPES,
        primaryType: 'TransferWithAuthorization',
        message: authorization,
      });
      const a = authorization;
      const args = [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature] as const;
      return { e, usdc, payer, payee, relayer, authorization, signature, args };
    }

    it('behavior: a relayer settles a signed authorization once and authorizationState flips', async () => {
      const { e, usdc, payer, payee, relayer, authorization, args } = await setup(3600n);
      const used = () =>
        e.publicClient.readContract({
          address: usdc,
          abi: sandboxTokenAbi,
          functionName: 'authorizationState',
          args: [payer.address, authorization.nonce],
        });
      expect(await used()).toBe(false);
      await mined(e, await relayer.wallet.writeContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'transferWithAuthorization', args }));
      expect(await used()).toBe(true);
      expect(await balanceOf(e, usdc, payee.address)).toBe(1_250_000n);
      expect(await balanceOf(e, usdc, payer.address)).toBe(8_750_000n);
    });

    it('behavior: the (v, r, s) variant settles too', async () => {
      const { e, usdc, payee, relayer, authorization: a, signature } = await setup(3600n);
      const { v, r, s } = parseSignature(signature);
      await mined(
        e,
        await relayer.wallet.writeContract({
          address: usdc,
          abi: sandboxTokenAbi,
          functionName: 'transferWithAuthorization',
          args: [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, Number(v), r, s],
        }),
      );
      expect(await balanceOf(e, usdc, payee.address)).toBe(1_250_000n);
    });

    it('error: a replayed authorization is rejected', async () => {
      const { e, usdc, relayer, args } = await setup(3600n);
      await mined(e, await relayer.wallet.writeContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'transferWithAuthorization', args }));
      await expect(
        e.publicClient.simulateContract({ account: relayer.account, address: usdc, abi: sandboxTokenAbi, functionName: 'transferWithAuthorization', args }),
      ).rejects.toThrow(/authorization is used or canceled/);
    });

    it('error: an expired authorization or a tampered value is rejected', async () => {
      const { e, usdc, relayer, args } = await setup(0n);
      await expect(
        e.publicClient.simulateContract({ account: relayer.account, address: usdc, abi: sandboxTokenAbi, functionName: 'transferWithAuthorization', args }),
      ).rejects.toThrow(/authorization is expired/);
      const fresh = await setup(3600n);
      const [from, to, , validAfter, validBefore, nonce, signature] = fresh.args;
      await expect(
        fresh.e.publicClient.simulateContract({
          account: fresh.relayer.account,
          address: fresh.usdc,
          abi: sandboxTokenAbi,
          functionName: 'transferWithAuthorization',
          args: [from, to, 9_999_999n, validAfter, validBefore, nonce, signature],
        }),
      ).rejects.toThrow(/invalid signature/);
    });
  });
});

describe('sandbox Aave-like pool', () => {
  const RESERVE_DATA_WORDS = [
    { type: 'uint256' }, // configuration
    { type: 'uint128' }, // liquidityIndex
    { type: 'uint128' }, // currentLiquidityRate
    { type: 'uint128' }, // variableBorrowIndex
    { type: 'uint128' }, // currentVariableBorrowRate
    { type: 'uint128' }, // currentStableBorrowRate
    { type: 'uint40' }, // lastUpdateTimestamp
    { type: 'uint16' }, // id
    { type: 'address' }, // aTokenAddress
    { type: 'address' }, // stableDebtTokenAddress
    { type: 'address' }, // variableDebtTokenAddress
    { type: 'address' }, // interestRateStrategyAddress
    { type: 'uint128' }, // accruedToTreasury
    { type: 'uint128' }, // unbacked
    { type: 'uint128' }, // isolationModeTotalDebt
  ] as const;

  it('behavior: getReserveData decoded positionally gives the configured APR in ray and the aToken', async () => {
    for (const name of CHAIN_LIST) {
      const e = env(name);
      for (const m of e.d.markets) {
        if (m.protocol !== 'aave-v3') continue;
        const { asset, token } = m;
        const { data } = await e.publicClient.call({
          to: e.d.aavePool!,
          data: encodeFunctionData({ abi: sandboxPoolAbi, functionName: 'getReserveData', args: [token] }),
        });
        const words = decodeAbiParameters(RESERVE_DATA_WORDS, data as Hex);
        expect(words[1]).toBeGreaterThanOrEqual(RAY);
        // Aave's Pool computes the rate from the strategy's borrow rate and utilisation: equal to the target within rounding
        const target = aprToRay(sandboxPoolApr(name, asset));
        expect(words[2] > target - 1000n && words[2] < target + 1000n).toBe(true);
        expect(words[8]).toBe(m.aToken);
      }
    }
    expect(aprToRay(sandboxPoolApr('base-sepolia', 'USDC'))).toBe(42n * 10n ** 24n);
  });

  it('behavior: supply, then withdraw(max) after time passes returns principal plus linear interest', async () => {
    const e = env('ethereum-sepolia');
    const usdc = tokenOf(e, 'USDC');
    const aToken = aTokenOf(e, 'USDC');
    const user = await newUser(e);
    const principal = parseUnits('1000', 6);
    await mint(e, usdc, user.address, principal);
    await mined(e, await user.wallet.writeContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'approve', args: [e.d.aavePool!, principal] }));
    const supplied = await mined(
      e,
      await user.wallet.writeContract({ address: e.d.aavePool!, abi: sandboxPoolAbi, functionName: 'supply', args: [usdc, principal, user.address, 0] }),
    );
    const aBalance = () => e.publicClient.readContract({ address: aToken, abi: sandboxATokenAbi, functionName: 'balanceOf', args: [user.address] });
    expect(await aBalance()).toBe(principal);

    await e.testClient.increaseTime({ seconds: 86_400 });
    await e.testClient.mine({ blocks: 1 });
    const grown = await aBalance();
    expect(grown).toBeGreaterThan(principal);

    const withdrawn = await mined(
      e,
      await user.wallet.writeContract({
        address: e.d.aavePool!,
        abi: sandboxPoolAbi,
        functionName: 'withdraw',
        args: [usdc, 2n ** 256n - 1n, user.address],
      }),
    );
    const [event] = parseEventLogs({ abi: sandboxPoolAbi, logs: withdrawn.logs, eventName: 'Withdraw' });
    const amount = event?.args.amount ?? 0n;
    expect(await balanceOf(e, usdc, user.address)).toBe(amount);
    expect(amount).toBeGreaterThanOrEqual(grown);
    expect(await aBalance()).toBe(0n);

    // interest = principal × APR × Δt / year (linear), Δt measured in chain time
    const dt = (await blockTime(e, withdrawn.blockNumber)) - (await blockTime(e, supplied.blockNumber));
    expect(dt).toBeGreaterThanOrEqual(86_400n);
    const expected = (principal * aprToRay(sandboxPoolApr('ethereum-sepolia', 'USDC')) * dt) / SECONDS_PER_YEAR / RAY;
    const interest = amount - principal;
    expect(interest - expected).toBeGreaterThanOrEqual(-2n);
    expect(interest - expected).toBeLessThanOrEqual(2n);
  });

  it('error: withdrawing more than the position is rejected', async () => {
    const e = env('base-sepolia');
    const user = await newUser(e);
    await expect(
      e.publicClient.simulateContract({
        account: user.account,
        address: e.d.aavePool!,
        abi: sandboxPoolAbi,
        functionName: 'withdraw',
        args: [tokenOf(e, 'USDC'), 1n, user.address],
      }),
    ).rejects.toThrow(/reverted with the following reason:\s*32\b/); // Aave's NOT_ENOUGH_AVAILABLE_USER_BALANCE
  });
});

describe('sandbox Comet', () => {
  it('behavior: reports the configured per-second supply rate and pays interest on withdraw(max)', async () => {
    const e = env('ethereum-sepolia');
    const comet = cometOf(e);
    const usdc = tokenOf(e, 'USDC');
    const read = { address: comet, abi: sandboxCometAbi } as const;
    const utilization = await e.publicClient.readContract({ ...read, functionName: 'getUtilization' });
    const rate = await e.publicClient.readContract({ ...read, functionName: 'getSupplyRate', args: [utilization] });
    expect(rate).toBe(aprToCometRatePerSecond(SANDBOX_COMET_APR['ethereum-sepolia'] as string));

    const user = await newUser(e);
    const principal = parseUnits('500', 6);
    await mint(e, usdc, user.address, principal);
    await mined(e, await user.wallet.writeContract({ address: usdc, abi: sandboxTokenAbi, functionName: 'approve', args: [comet, principal] }));
    const supplied = await mined(e, await user.wallet.writeContract({ ...read, functionName: 'supply', args: [usdc, principal] }));
    const balance = () => e.publicClient.readContract({ ...read, functionName: 'balanceOf', args: [user.address] });
    expect(await balance()).toBeGreaterThanOrEqual(principal - 1n);

    await e.testClient.increaseTime({ seconds: 86_400 });
    await e.testClient.mine({ blocks: 1 });
    expect(await balance()).toBeGreaterThan(principal);

    const withdrawn = await mined(e, await user.wallet.writeContract({ ...read, functionName: 'withdraw', args: [usdc, 2n ** 256n - 1n] }));
    const dt = (await blockTime(e, withdrawn.blockNumber)) - (await blockTime(e, supplied.blockNumber));
    const received = await balanceOf(e, usdc, user.address);
    const expected = principal + (principal * rate * dt) / 10n ** 18n;
    expect(received - expected).toBeGreaterThanOrEqual(-2n);
    expect(received - expected).toBeLessThanOrEqual(2n);
    expect(await balance()).toBe(0n);
  });

  it('error: supplying a non-base asset is rejected', async () => {
    const e = env('ethereum-sepolia');
    const user = await newUser(e);
    await expect(
      e.publicClient.simulateContract({
        account: user.account,
        address: cometOf(e),
        abi: sandboxCometAbi,
        functionName: 'supply',
        args: [tokenOf(e, 'WETH'), 1n],
      }),
    ).rejects.toThrow(/UnsupportedAsset/);
  });
});

// CCTP v2 (burn, attestation from the Iris-compatible service, mint) is covered by test/protocols/usdcCctpV2.test.ts.

describe('sandbox price feed', () => {
  it('behavior: ETH/USD answers 3000 with 8 decimals on every chain', async () => {
    for (const name of CHAIN_LIST) {
      const e = env(name);
      const feed = { address: e.d.ethUsdFeed, abi: sandboxPriceFeedAbi } as const;
      expect(await e.publicClient.readContract({ ...feed, functionName: 'decimals' })).toBe(8);
      const [roundId, answer, , updatedAt, answeredInRound] = await e.publicClient.readContract({ ...feed, functionName: 'latestRoundData' });
      expect(answer).toBe(SANDBOX_ETH_USD_ANSWER);
      expect(roundId).toBeGreaterThanOrEqual(1n);
      expect(answeredInRound).toBe(roundId);
      expect(updatedAt).toBeGreaterThan(0n);
    }
  });

  it('error: only the owner sets the answer', async () => {
    const e = env('base-sepolia');
    const user = await newUser(e);
    await expect(
      e.publicClient.simulateContract({ account: user.account, address: e.d.ethUsdFeed, abi: sandboxPriceFeedAbi, functionName: 'setAnswer', args: [1n] }),
    ).rejects.toThrow(/NotOwner/);
  });
});

describe('sandbox deployment', () => {
  it("behavior: addresses are deterministic (same on every fresh chain) and a second deploy reuses them; USDC sits at Circle's address of each test network", async () => {
    const first = sandboxChain(manifest, 'ethereum-sepolia');
    for (const name of CHAIN_LIST) {
      const d = sandboxChain(manifest, name);
      expect(d.tokens.USDC).toBe(CIRCLE_USDC[name]);
      expect(d.aavePool).toBe(first.aavePool);
    }
    const chains = Object.fromEntries(CHAIN_LIST.map((n) => [n, { rpcUrl: sandboxChain(manifest, n).rpcUrl, chainId: CHAINS[n].chainId }]));
    const again = await deploySandbox({
      chains,
      deployerKey: SANDBOX_KEYS.deployer,
      attesterAddress: SANDBOX_ADDRESSES.attester,
      minters: [SANDBOX_ADDRESSES.faucet],
    });
    // the attestation service's URL is the running sandbox's, not the deployment's
    expect(again).toEqual({ ...manifest, attestationApi: undefined });
  });
});
