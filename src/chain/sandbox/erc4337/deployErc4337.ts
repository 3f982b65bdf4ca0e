import {
  concat,
  encodeDeployData,
  getContractAddress,
  parseEther,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type HttpTransport,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from 'viem';
import type { ChainName } from '../../../domain/chains';
import { servicePaymasterAbi } from '../abis';
import artifacts from '../artifacts.json';
import { SANDBOX_DEPLOY_GAS, SANDBOX_WRITE_GAS } from '../deployGas';
import { ARACHNID_DEPLOYER, ARACHNID_DEPLOYER_CODE, ERC4337_SALTS, ERC4337_V08, erc4337Artifact } from './canonical';

/**
 * What the sandbox puts in the paymaster's EntryPoint deposit on each devnet:
 * 1,000 ETH. A bundle of one operation costs some 0.0003-0.001 ETH at a
 * devnet's gas price, so a suite's few thousand operations take a few ETH;
 * the deployer holds a million. Topped up to this on every (re)deploy.
 */
export const SANDBOX_PAYMASTER_DEPOSIT_WEI = parseEther('1000');

/** What deployErc4337 needs of one devnet. */
export interface Erc4337DeployContext {
  name: ChainName;
  public: PublicClient<HttpTransport, Chain>;
  wallet: WalletClient<HttpTransport, Chain, PrivateKeyAccount>;
  /** Deploys `initCode` through the sandbox's CREATE2 factory under `label` (or finds it there). */
  create2(label: string, initCode: Hex): Promise<Address>;
  /** Waits for the transaction and fails unless it succeeded. */
  confirm(pending: Promise<Hash>): Promise<void>;
}

/** The ERC-4337 v0.8 contracts of one chain, as the manifest's `erc4337` names them. */
export interface Erc4337Deployment {
  entryPoint: Address;
  delegate: Address;
  paymaster: Address;
}

/**
 * ERC-4337 v0.8 on a devnet, as the public networks have it: Arachnid's
 * deployer (its runtime put in place: a devnet has no pre-signed
 * deployment transaction's sender funded), then EntryPoint and
 * Simple7702Account created through it from the package's init code with the
 * canonical salts (real transactions: EntryPoint's constructor creates its
 * SenderCreator), which lands them at the canonical addresses or fails. Then
 * the service's paymaster (owner and verifying signer: `signer`, the gas
 * tank) through the sandbox factory, its deposit topped up to
 * SANDBOX_PAYMASTER_DEPOSIT_WEI. Idempotent: what has code is kept.
 */
export async function deployErc4337(ctx: Erc4337DeployContext, signer: Address): Promise<Erc4337Deployment> {
  if (!(await hasCode(ctx, ARACHNID_DEPLOYER))) {
    await ctx.public.request({ method: 'hardhat_setCode' as never, params: [ARACHNID_DEPLOYER, ARACHNID_DEPLOYER_CODE] as never });
  }
  const entryPoint = await deterministic(ctx, 'EntryPoint', ERC4337_SALTS.entryPoint, ERC4337_V08.entryPoint);
  const delegate = await deterministic(ctx, 'Simple7702Account', ERC4337_SALTS.delegate, ERC4337_V08.delegate);
  const paymaster = await ctx.create2(
    'erc4337:ServicePaymaster',
    encodeDeployData({ abi: servicePaymasterAbi, bytecode: artifacts.ServicePaymaster.bytecode as Hex, args: [entryPoint, signer, signer] }),
  );
  const deposit = await ctx.public.readContract({ address: paymaster, abi: servicePaymasterAbi, functionName: 'getDeposit' });
  if (deposit < SANDBOX_PAYMASTER_DEPOSIT_WEI) {
    await ctx.confirm(
      ctx.wallet.writeContract({
        address: paymaster,
        abi: servicePaymasterAbi,
        functionName: 'deposit',
        value: SANDBOX_PAYMASTER_DEPOSIT_WEI - deposit,
        gas: SANDBOX_WRITE_GAS,
      }),
    );
  }
  return { entryPoint, delegate, paymaster };
}

/** CREATE2 of the package's init code through Arachnid's deployer; the address must be the canonical one. */
async function deterministic(ctx: Erc4337DeployContext, name: 'EntryPoint' | 'Simple7702Account', salt: Hex, canonical: Address): Promise<Address> {
  const initCode = erc4337Artifact(name).bytecode;
  const address = getContractAddress({ opcode: 'CREATE2', from: ARACHNID_DEPLOYER, salt, bytecode: initCode });
  if (address !== canonical) throw new Error(`deployErc4337: ${name} of the installed package would land at ${address}, not at ${canonical}`);
  if (await hasCode(ctx, address)) return address;
  await ctx.confirm(ctx.wallet.sendTransaction({ to: ARACHNID_DEPLOYER, data: concat([salt, initCode]), gas: SANDBOX_DEPLOY_GAS }));
  if (!(await hasCode(ctx, address))) throw new Error(`deployErc4337: ${ctx.name}: ${name} not found at ${address} after its deployment`);
  return address;
}

async function hasCode(ctx: Erc4337DeployContext, address: Address): Promise<boolean> {
  const code = await ctx.public.getCode({ address });
  return code !== undefined && code !== '0x';
}
