import { builder } from '../builder';
import { ASSETS, CHAINS, type Asset, type ChainName, type LendingProtocol, type TokenAsset } from '../../domain/chains';
import { LENDING_PROTOCOLS, LENDING_PROTOCOL_INFO } from '../../domain/protocols';
import type { StepType } from '../../domain/intent';
import type { TransactionKind } from '../../app/intents/intentView';

/**
 * The closed value sets shared by several types. Every enum is built from a
 * description per domain value (`Record<DomainValue, string>`), so a value
 * added to the domain does not compile until it is described here, and the
 * GraphQL names follow one rule: "ethereum-sepolia" ↔ ETHEREUM_SEPOLIA,
 * "aave-v3" ↔ AAVE_V3 (GraphQL names cannot hold "-" or ".").
 */
export function describedValues<T extends string>(descriptions: Record<T, string>): Record<string, { value: T; description: string }> {
  return Object.fromEntries(
    (Object.entries(descriptions) as [T, string][]).map(([value, description]) => [value.toUpperCase().replace(/[-.]/g, '_'), { value, description }]),
  );
}

const chainDescription = (c: ChainName): string => {
  const info = CHAINS[c];
  const network = info.testnet ? 'test network' : 'main network';
  const status = info.status === 'active' ? '' : ' Not served yet (upcoming).';
  return `${c}: EVM ${network}, chain id ${info.chainId}.${status}`;
};

export const ChainEnum = builder.enumType('Chain', {
  description: 'An EVM chain the service acts on (REST spells it in lower case with dashes: ETHEREUM_SEPOLIA is "ethereum-sepolia").',
  values: describedValues<ChainName>({
    ethereum: chainDescription('ethereum'),
    arbitrum: chainDescription('arbitrum'),
    base: chainDescription('base'),
    'ethereum-sepolia': chainDescription('ethereum-sepolia'),
    'arbitrum-sepolia': chainDescription('arbitrum-sepolia'),
    'base-sepolia': chainDescription('base-sepolia'),
  }),
});

export const ChainTypeEnum = builder.enumType('ChainType', {
  description: 'The family of chains a wallet key belongs to.',
  values: describedValues<'ethereum' | 'tron'>({
    ethereum: 'One 0x… address on every EVM chain (the default).',
    tron: 'A base58 T… address; no chain is served for it yet.',
  }),
});

const ASSET_DESCRIPTIONS: Record<Asset, string> = {
  USDC: 'USD Coin (ERC-20, 6 decimals).',
  USDT: 'Tether USD (ERC-20, 6 decimals).',
  DAI: 'Dai (ERC-20, 18 decimals).',
  WETH: 'Wrapped ether (ERC-20, 18 decimals).',
  ETH: 'Native ether, the gas token (18 decimals): held, never lent or bridged.',
};

/** Everything a wallet can hold: the set REST's balance report uses (ASSETS). */
export const AssetEnum = builder.enumType('Asset', {
  description: 'Anything a wallet can hold: the ERC-20 tokens and native ETH (the same set as `asset` in REST balance reports).',
  values: Object.fromEntries(ASSETS.map((a) => [a, { value: a, description: ASSET_DESCRIPTIONS[a] }])) as Record<Asset, { value: Asset; description: string }>,
});

/** The tokens that can be lent, withdrawn, bridged and quoted: REST's `tokenAsset` (TOKEN_ASSETS). */
export const TokenAssetEnum = builder.enumType('TokenAsset', {
  description:
    'An ERC-20 token the service lends, withdraws, bridges and quotes (the same set as `asset` in REST intents, yields and steps): every Asset except native ETH.',
  values: {
    USDC: { value: 'USDC' as TokenAsset, description: ASSET_DESCRIPTIONS.USDC },
    USDT: { value: 'USDT' as TokenAsset, description: ASSET_DESCRIPTIONS.USDT },
    DAI: { value: 'DAI' as TokenAsset, description: ASSET_DESCRIPTIONS.DAI },
    WETH: { value: 'WETH' as TokenAsset, description: ASSET_DESCRIPTIONS.WETH },
  },
});

export const LendingProtocolEnum = builder.enumType('LendingProtocol', {
  description: `A lending protocol the service supplies to (REST spells it ${LENDING_PROTOCOLS.map((p) => `"${p}"`).join(', ')}).`,
  values: describedValues<LendingProtocol>(LENDING_PROTOCOL_INFO),
});

export const StepTypeEnum = builder.enumType('StepType', {
  description: 'The kind of an execution plan step.',
  values: describedValues<StepType>({
    deposit: 'Supply tokens to a lending protocol.',
    withdraw: 'Withdraw tokens from a lending protocol.',
    bridge: 'Move USDC to another chain (CCTP burn, then mint).',
  }),
});

export const TransactionKindEnum = builder.enumType('TransactionKind', {
  description: 'What a transaction sent on chain does.',
  values: describedValues<TransactionKind>({
    approve: "Allows a protocol or the bridge to move the wallet's tokens (ERC-20 approve).",
    revoke: 'Takes back an allowance a failed step left standing (approve to 0).',
    supply: 'Supplies tokens to a lending protocol.',
    withdraw: 'Withdraws tokens from a lending protocol.',
    burn: 'Burns USDC on the source chain of a bridge (CCTP depositForBurn).',
    mint: "Mints the bridged USDC on the destination chain (CCTP receiveMessage, sent by the service's relayer).",
    transfer: 'A plain token transfer (demo funding).',
  }),
});

/** The engine's sub-transaction statuses (src/domain/txRecords.ts SubTxStatus). */
export type TransactionStatus = 'signed' | 'confirmed' | 'reverted';

export const TransactionStatusEnum = builder.enumType('TransactionStatus', {
  description: 'Where a sent transaction stands.',
  values: describedValues<TransactionStatus>({
    signed: 'Signed and sent; no receipt yet.',
    confirmed: 'Mined and successful.',
    reverted: 'Mined and reverted.',
  }),
});

/** The value when it is one of `values`, else null (records written before a field existed, or by another version). */
export function known<T extends string>(values: readonly T[], v: unknown): T | null {
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : null;
}

export const BridgeSpeedEnum = builder.enumType('BridgeSpeed', {
  description: 'How fast the CCTP transfers of a bridge or lend are attested (REST spells them "fast" and "standard").',
  values: {
    FAST: { value: 'fast' as const, description: 'Attested at soft finality, in seconds, for a fee of a few basis points (the default).' },
    STANDARD: { value: 'standard' as const, description: 'Attested after hard finality (minutes on the public networks), no fee.' },
  },
});

export const OptimizeGoalEnum = builder.enumType('OptimizeGoal', {
  description: 'An opt-in rule for choosing where a lend goes, instead of the highest APY (REST spells NET_RETURN "netReturn").',
  values: {
    NET_RETURN: {
      value: 'netReturn' as const,
      description: 'The market where the amount nets the most over the horizon: earnings at the APY less route fees and gas.',
    },
  },
});
