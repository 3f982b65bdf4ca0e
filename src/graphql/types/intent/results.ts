import { builder } from '../../builder';
import { ChainEnum, StepTypeEnum, TransactionKindEnum, TransactionStatusEnum, known, type TransactionStatus } from '../enums';
import type { TransactionKind } from '../../../app/intents/intentView';
import type { IntentResults, TransactionRecord } from '../../../domain/intent';

/** What an intent's execution did: its transactions and totals. */

const TX_KINDS: readonly TransactionKind[] = ['approve', 'revoke', 'supply', 'withdraw', 'burn', 'mint', 'transfer'];
const TX_STATUSES: readonly TransactionStatus[] = ['signed', 'confirmed', 'reverted'];

/** The engine's extra fields on a transaction record, when present. */
const extra = (r: TransactionRecord, key: 'kind' | 'status'): unknown => (r as TransactionRecord & Partial<Record<'kind' | 'status', unknown>>)[key];

const TransactionRef = builder.objectRef<TransactionRecord>('IntentTransaction').implement({
  description: 'A transaction an intent sent.',
  fields: (t) => ({
    type: t.field({ type: StepTypeEnum, description: 'Kind of the step it belongs to.', resolve: (r) => r.type }),
    kind: t.field({
      type: TransactionKindEnum,
      nullable: true,
      description:
        'What the transaction does (APPROVE, SUPPLY, WITHDRAW, BURN, MINT, or REVOKE: an allowance taken back after a failure); null on records that do not say.',
      resolve: (r) => known(TX_KINDS, extra(r, 'kind')),
    }),
    replacedTxHashes: t.stringList({
      description: 'Other hashes signed at the same nonce (fee-bumped replacements of a stuck transaction); none of them was mined.',
      resolve: (r) => {
        const replaced = (r as TransactionRecord & { replaced?: unknown }).replaced;
        return Array.isArray(replaced) ? replaced.map(String) : [];
      },
    }),
    status: t.field({
      type: TransactionStatusEnum,
      nullable: true,
      description: 'SIGNED (sent, no receipt yet), CONFIRMED or REVERTED; null on records that do not say.',
      resolve: (r) => known(TX_STATUSES, extra(r, 'status')),
    }),
    txHash: t.exposeString('txHash', { description: 'The transaction hash.' }),
    chain: t.field({ type: ChainEnum, nullable: true, description: 'The chain it was sent on.', resolve: (r) => r.chain }),
    gasUsed: t.exposeString('gasUsed', { nullable: true, description: 'Gas used (integer string); null until mined.' }),
    gasCostUsd: t.exposeFloat('gasCostUsd', { nullable: true, description: 'What that gas cost, in USD; null until mined.' }),
  }),
});

export const ResultsRef = builder.objectRef<IntentResults>('IntentResults').implement({
  description: 'What execution did; present once execution has started.',
  fields: (t) => ({
    completedSteps: t.exposeInt('completedSteps', { description: 'How many steps completed.' }),
    transactions: t.field({ type: [TransactionRef], description: 'Every transaction sent, in order.', resolve: (r) => r.transactions }),
    totalGasUsed: t.exposeString('totalGasUsed', { description: 'Gas used by every transaction (integer string).' }),
    totalGasCostUsd: t.exposeFloat('totalGasCostUsd', { description: 'What that gas cost, in USD.' }),
    finalAmount: t.exposeString('finalAmount', { description: 'Token units in place at the end (decimal string).' }),
    apy: t.exposeFloat('apy', { description: 'APY obtained, percent.' }),
    failedStep: t.exposeInt('failedStep', { nullable: true, description: 'Position (from 1) of the step that failed.' }),
    bridgeFees: t.exposeString('bridgeFees', {
      nullable: true,
      description: "What the CCTP fees of the intent's bridges took, as their mints kept it back (decimal string); null until a bridge is minted.",
    }),
  }),
});
