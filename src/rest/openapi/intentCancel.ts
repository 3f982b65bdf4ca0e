import { EXAMPLES, PROTOCOL_A } from './examples';

/** Examples of POST /intents/{intentId}/cancel answers (redocly lint checks them against the Intent schema). */
const AT = '2026-01-31T12:00:00.000Z';
const LATER = '2026-01-31T12:00:40.000Z';
const BURN = `0x${'cd'.repeat(32)}`;

export const CANCEL_EXAMPLES = {
  pending: { ...EXAMPLES.intent, status: 'cancelled', updatedAt: AT, completedAt: AT, cancelRequestedAt: AT },
  requested: {
    ...EXAMPLES.intent,
    status: 'executing',
    updatedAt: AT,
    cancelRequestedAt: AT,
    executionPlan: {
      strategy: 'single-bridge',
      steps: [
        {
          type: 'bridge',
          from: 'arbitrum-sepolia',
          to: 'base-sepolia',
          index: 0,
          status: 'executing',
          chain: 'arbitrum-sepolia',
          amount: '10.5',
          amountUnits: '10500000',
          startedAt: AT,
        },
        { type: 'deposit', protocol: PROTOCOL_A, asset: 'USDC', index: 1, status: 'pending', chain: 'base-sepolia', amount: '10.5', amountUnits: '10500000' },
      ],
      reasoning: 'Lend 10.5 USDC. Best: base-sepolia/aave-v3 at 4.29%. Bridging 10.5 USDC from arbitrum-sepolia, then depositing.',
    },
    results: {
      completedSteps: 0,
      transactions: [{ type: 'bridge', kind: 'burn', txHash: BURN, chain: 'arbitrum-sepolia', status: 'signed' }],
      totalGasUsed: '0',
      totalGasCostUsd: 0,
      finalAmount: '0',
      apy: 4.29,
    },
  },
} as const;

/** The same intent once the bridge completed and the engine stopped before the deposit. */
export const CANCELLED_MIDWAY_EXAMPLE = {
  ...CANCEL_EXAMPLES.requested,
  status: 'cancelled',
  updatedAt: LATER,
  completedAt: LATER,
  executionPlan: {
    ...CANCEL_EXAMPLES.requested.executionPlan,
    steps: [
      { ...CANCEL_EXAMPLES.requested.executionPlan.steps[0], status: 'completed', txHash: BURN, completedAt: LATER, gasUsed: '190000', gasCostUsd: 0.02 },
      CANCEL_EXAMPLES.requested.executionPlan.steps[1],
    ],
  },
  results: {
    ...CANCEL_EXAMPLES.requested.results,
    completedSteps: 1,
    transactions: [{ ...CANCEL_EXAMPLES.requested.results.transactions[0], status: 'confirmed', gasUsed: '190000', gasCostUsd: 0.02 }],
    totalGasUsed: '190000',
    totalGasCostUsd: 0.02,
  },
} as const;
