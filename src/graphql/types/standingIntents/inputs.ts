import { builder } from '../../builder';
import { ChainEnum, LendingProtocolEnum } from '../enums';

export const MarketInput = builder.inputType('LendingMarketInput', {
  description: 'A lending market: a protocol on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, required: true, description: 'The chain.' }),
    protocol: t.field({ type: LendingProtocolEnum, required: true, description: 'The lending protocol.' }),
  }),
});
