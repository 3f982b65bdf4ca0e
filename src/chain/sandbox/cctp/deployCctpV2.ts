import { pad, type Address } from 'viem';
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from '../abis';
import artifacts from '../artifacts.json';
import type { Deployer } from '../deployer';
import { configureUsdcMinter } from '../usdc/deployUsdc';

/** CCTP v2's message and burn-message versions (both 1 on Circle's v2 contracts). */
export const CCTP_V2_MESSAGE_VERSION = 1;
export const CCTP_V2_MESSAGE_BODY_VERSION = 1;
/** Circle's limit on a message body (8 KiB). */
const MAX_MESSAGE_BODY_SIZE = 8192n;

export interface DeployCctpV2Parameters {
  domain: number;
  /** The chain's USDC; the deployer must be its master minter (deployUsdc's deployer is). */
  usdc: Address;
  /** May enable attesters on the transmitter (the attestation service's key is enabled through it). */
  attesterManager: Address;
  /** Receives the fee of every fast transfer minted on this chain. */
  feeRecipient: Address;
  /** What the messenger may mint in total (default 10^15 units: a billion USDC). */
  minterAllowance?: bigint;
  /** Largest single burn (default 10^13 units: ten million USDC). */
  burnLimitPerMessage?: bigint;
}

/** One chain's CCTP v2 contracts. */
export interface CctpV2Deployment {
  domain: number;
  usdc: Address;
  messageTransmitter: Address;
  tokenMessenger: Address;
}

export interface DeployCctpV2ReturnType extends CctpV2Deployment {
  transactions: number;
  ms: number;
}

/**
 * Deploys this repository's MessageTransmitterV2 and TokenMessengerV2 on one
 * chain, makes the messenger a USDC minter and USDC burnable through it.
 * Routes to other chains come after, with linkCctpV2Routes.
 */
export async function deployCctpV2(deployer: Deployer, params: DeployCctpV2Parameters): Promise<DeployCctpV2ReturnType> {
  const started = Date.now();
  const sentBefore = deployer.transactions;
  const owner = deployer.account;
  const messageTransmitter = await deployer.deploy({
    abi: messageTransmitterV2Abi,
    bytecode: artifacts.MessageTransmitterV2.bytecode as `0x${string}`,
    args: [params.domain, CCTP_V2_MESSAGE_VERSION, owner, params.attesterManager, MAX_MESSAGE_BODY_SIZE],
  });
  const tokenMessenger = await deployer.deploy({
    abi: tokenMessengerV2Abi,
    bytecode: artifacts.TokenMessengerV2.bytecode as `0x${string}`,
    args: [messageTransmitter, CCTP_V2_MESSAGE_BODY_VERSION, owner, params.feeRecipient],
  });
  await configureUsdcMinter(deployer, params.usdc, { address: tokenMessenger, allowance: params.minterAllowance ?? 10n ** 15n });
  await deployer.confirm(
    deployer.wallet.writeContract({
      address: tokenMessenger,
      abi: tokenMessengerV2Abi,
      functionName: 'setMaxBurnAmountPerMessage',
      args: [params.usdc, params.burnLimitPerMessage ?? 10n ** 13n],
    }),
  );
  return {
    domain: params.domain,
    usdc: params.usdc,
    messageTransmitter,
    tokenMessenger,
    transactions: deployer.transactions - sentBefore,
    ms: Date.now() - started,
  };
}

/** Registers each remote chain's messenger and maps its USDC to the local USDC (sent on `local`'s chain). */
export async function linkCctpV2Routes(deployer: Deployer, local: CctpV2Deployment, remotes: readonly CctpV2Deployment[]): Promise<void> {
  for (const remote of remotes) {
    if (remote.domain === local.domain) continue;
    const messenger = { address: local.tokenMessenger, abi: tokenMessengerV2Abi } as const;
    await deployer.confirm(
      deployer.wallet.writeContract({ ...messenger, functionName: 'addRemoteTokenMessenger', args: [remote.domain, pad(remote.tokenMessenger)] }),
    );
    await deployer.confirm(deployer.wallet.writeContract({ ...messenger, functionName: 'linkTokenPair', args: [local.usdc, remote.domain, pad(remote.usdc)] }));
  }
}
