import { builder } from '../../builder';
import { BridgeSpeedEnum, ChainEnum, LendingProtocolEnum, OptimizeGoalEnum, TokenAssetEnum } from '../enums';
import { IntentActionEnum } from './type';

const RebalanceSourceInput = builder.inputType('RebalanceSourceInput', {
  description: 'One source of a rebalance (createIntent).',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, required: true, description: 'The chain the funds are on.' }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the position to withdraw; null or absent for idle funds.' }),
    amount: t.string({ required: true, description: 'Decimal string in token units, e.g. "10.5".' }),
  }),
});

export const CreateIntentInput = builder.inputType('CreateIntentInput', {
  description: 'A new intent (the body of POST /v1/intents).',
  fields: (t) => ({
    walletId: t.id({ required: true, description: 'The wallet to act for (svc_wallet_…).' }),
    action: t.field({ type: IntentActionEnum, required: true, description: 'LEND, WITHDRAW, BRIDGE or REBALANCE.' }),
    amount: t.string({ required: true, description: 'Decimal string in token units, e.g. "10.5".' }),
    asset: t.field({ type: TokenAssetEnum, description: 'Default USDC.' }),
    chain: t.field({ type: ChainEnum, description: 'lend: the destination (default: best APY); withdraw: required.' }),
    fromChain: t.field({ type: ChainEnum, description: 'bridge: required.' }),
    toChain: t.field({ type: ChainEnum, description: 'bridge: required; rebalance: the chain of the target market, required.' }),
    toProtocol: t.field({ type: LendingProtocolEnum, description: 'rebalance only, required there: the lending protocol of the target market.' }),
    sources: t.field({
      type: [RebalanceSourceInput],
      description: 'rebalance only, required there: where the funds come from; `amount` must be the sum of their amounts.',
    }),
    optimize: t.field({
      type: OptimizeGoalEnum,
      description: 'lend only, opt-in: NET_RETURN chooses the market (when chain is absent) by net return over horizonDays instead of the highest APY.',
    }),
    horizonDays: t.int({ description: 'With optimize only: the days earnings are counted over, 1-3650 (default 30).' }),
    speed: t.field({
      type: BridgeSpeedEnum,
      description: 'bridge, lend and rebalance: FAST (default, seconds, a fee of a few bps) or STANDARD (hard finality, no fee).',
    }),
  }),
});
