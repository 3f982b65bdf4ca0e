import { isAddressEqual, pad, type Address, type Hex } from 'viem';
import type { Deployer } from '../deployer';
import {
  FIAT_TOKEN_PROXY_ADMIN_SLOT,
  FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT,
  fiatTokenArtifact,
  fiatTokenProxyAbi,
  fiatTokenV2_2Abi,
  linkBytecode,
} from './fiatToken';

/** USDC as Circle names it on every chain (EIP-712 domain name "USDC", version "2"). */
export const USDC_NAME = 'USDC';
export const USDC_SYMBOL = 'USDC';
export const USDC_CURRENCY = 'USD';
export const USDC_DECIMALS = 6;

/** A minter of the token and how much it may mint before the master minter raises its allowance. */
export interface UsdcMinter {
  address: Address;
  allowance: bigint;
}

export interface DeployUsdcParameters {
  /**
   * Holds the token's roles (master minter, pauser, blacklister, owner). Must
   * differ from the proxy admin: FiatTokenProxy never forwards the admin's
   * calls to the implementation.
   */
  proxyAdmin: Address;
  minters?: readonly UsdcMinter[];
  /** Receives what the token contract itself held at initializeV2_1 (Circle's lost-and-found); default: the deployer. */
  lostAndFound?: Address;
  /**
   * Devnet-only: place the proxy at this address (Circle's USDC address on
   * the chain) with hardhat_setCode and its two admin/implementation slots,
   * instead of deploying it. The token's own storage is then written by the
   * same initialize calls as a deployed proxy gets.
   */
  at?: Address;
}

export interface DeployUsdcReturnType {
  /** The proxy: USDC's address. */
  address: Address;
  implementation: Address;
  signatureChecker: Address;
  /** Transactions this deployment sent (the deployer's count grew by as much). */
  transactions: number;
  ms: number;
}

/** Circle's deploy scripts initialize the implementation with these throwaway values so nobody can initialize it later. */
const THROWAWAY_ADDRESS: Address = '0x0000000000000000000000000000000000000001';

/**
 * Deploys Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy, from the
 * installed package's artifacts) and initializes it as Circle does:
 * initialize → initializeV2 (EIP-712 version "2") → initializeV2_1 →
 * initializeV2_2, then configures the minters. The deployer holds every token
 * role; `proxyAdmin` is only the proxy's admin.
 */
export async function deployUsdc(deployer: Deployer, params: DeployUsdcParameters): Promise<DeployUsdcReturnType> {
  const started = Date.now();
  const sentBefore = deployer.transactions;
  const owner = deployer.account;
  if (isAddressEqual(params.proxyAdmin, owner)) throw new Error('deployUsdc: the proxy admin must differ from the token owner');

  const checker = fiatTokenArtifact('SignatureChecker');
  const signatureChecker = await deployer.deploy({ abi: checker.abi, bytecode: checker.bytecode });
  const token = fiatTokenArtifact('FiatTokenV2_2');
  const implementation = await deployer.deploy({
    abi: token.abi,
    bytecode: linkBytecode(token.bytecode, token.linkReferences, { SignatureChecker: signatureChecker }),
  });
  await initialize(deployer, implementation, {
    name: '',
    symbol: '',
    currency: '',
    decimals: 0,
    roles: THROWAWAY_ADDRESS,
    lostAndFound: THROWAWAY_ADDRESS,
  });

  const address = params.at ?? (await deployProxy(deployer, implementation, params.proxyAdmin));
  if (params.at) await placeProxy(deployer, params.at, implementation, params.proxyAdmin);
  await initialize(deployer, address, {
    name: USDC_NAME,
    symbol: USDC_SYMBOL,
    currency: USDC_CURRENCY,
    decimals: USDC_DECIMALS,
    roles: owner,
    lostAndFound: params.lostAndFound ?? owner,
  });
  for (const minter of params.minters ?? []) await configureUsdcMinter(deployer, address, minter);

  return { address, implementation, signatureChecker, transactions: deployer.transactions - sentBefore, ms: Date.now() - started };
}

/** Lets `minter` mint up to `allowance` (sent by the master minter: the deployer of deployUsdc). */
export async function configureUsdcMinter(deployer: Deployer, usdc: Address, minter: UsdcMinter): Promise<void> {
  await deployer.confirm(
    deployer.wallet.writeContract({ address: usdc, abi: fiatTokenV2_2Abi, functionName: 'configureMinter', args: [minter.address, minter.allowance] }),
  );
}

async function deployProxy(deployer: Deployer, implementation: Address, admin: Address): Promise<Address> {
  const proxy = fiatTokenArtifact('FiatTokenProxy');
  const address = await deployer.deploy({ abi: proxy.abi, bytecode: proxy.bytecode, args: [implementation] });
  // The deployer is the admin after the constructor; handing the admin over lets it call the token.
  await deployer.confirm(deployer.wallet.writeContract({ address, abi: fiatTokenProxyAbi, functionName: 'changeAdmin', args: [admin] }));
  return address;
}

/** The proxy's runtime code at `at`, with the storage its constructor and changeAdmin would have written. */
async function placeProxy(deployer: Deployer, at: Address, implementation: Address, admin: Address): Promise<void> {
  const existing = await deployer.public.getCode({ address: at });
  if (existing !== undefined && existing !== '0x') throw new Error(`deployUsdc: ${deployer.chain} already has code at ${at}`);
  await deployer.setCode(at, fiatTokenArtifact('FiatTokenProxy').deployedBytecode);
  await deployer.setStorageAt(at, FIAT_TOKEN_PROXY_ADMIN_SLOT, pad(admin));
  await deployer.setStorageAt(at, FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT, pad(implementation));
}

interface TokenSetup {
  name: string;
  symbol: string;
  currency: string;
  decimals: number;
  /** Master minter, pauser, blacklister and owner. */
  roles: Address;
  lostAndFound: Address;
}

async function initialize(deployer: Deployer, address: Address, s: TokenSetup): Promise<void> {
  const write = (pending: Promise<Hex>) => deployer.confirm(pending);
  const w = deployer.wallet;
  const abi = fiatTokenV2_2Abi;
  await write(
    w.writeContract({
      address,
      abi,
      functionName: 'initialize',
      args: [s.name, s.symbol, s.currency, s.decimals, s.roles, s.roles, s.roles, s.roles],
    }),
  );
  await write(w.writeContract({ address, abi, functionName: 'initializeV2', args: [s.name] }));
  await write(w.writeContract({ address, abi, functionName: 'initializeV2_1', args: [s.lostAndFound] }));
  await write(w.writeContract({ address, abi, functionName: 'initializeV2_2', args: [[], s.symbol] }));
}
