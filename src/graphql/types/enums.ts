import { builder } from '../builder';
import { ASSETS, CHAIN_NAMES, type Asset, type ChainName } from '../../domain/chains';

/** GraphQL enum names cannot hold "-": ETHEREUM_SEPOLIA ↔ "ethereum-sepolia". */
export const ChainEnum = builder.enumType('Chain', {
  values: Object.fromEntries(CHAIN_NAMES.map((c) => [c.toUpperCase().replace(/-/g, '_'), { value: c }])) as Record<string, { value: ChainName }>,
});

export const ChainTypeEnum = builder.enumType('ChainType', {
  values: { ETHEREUM: { value: 'ethereum' as const }, TRON: { value: 'tron' as const } },
});

export const AssetEnum = builder.enumType('Asset', {
  values: Object.fromEntries(ASSETS.map((a) => [a, { value: a }])) as Record<Asset, { value: Asset }>,
});
