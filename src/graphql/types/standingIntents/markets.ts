import { builder } from '../../builder';
import { ChainEnum, LendingProtocolEnum } from '../enums';
import type { MarketRef } from '../../../domain/standingIntent';

/** Lending markets as standing intents' decisions and backtests name them. */

export const MarketRefType = builder.objectRef<MarketRef>('LendingMarket').implement({
  description: 'A lending market: a protocol on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (m) => m.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol.', resolve: (m) => m.protocol }),
  }),
});

export const MarketApyRef = builder.objectRef<MarketRef & { apy: number }>('LendingMarketApy').implement({
  description: 'A lending market and its supply APY as a decision counted it.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (m) => m.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol.', resolve: (m) => m.protocol }),
    apy: t.exposeFloat('apy', { description: 'Supply APY, percent.' }),
  }),
});
