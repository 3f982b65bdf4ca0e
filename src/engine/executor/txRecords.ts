/** The sub-transaction records live in the domain (src/domain/txRecords.ts), where the machine's events write them; the executor's name for them stays. */
export {
  findSubTx,
  gasTotals,
  hashesOf,
  isSubTxRecord,
  mintedOf,
  stepRecords,
  withObserved,
  withReceipt,
  withReplacement,
  withSigned,
  type SubTxRecord,
  type SubTxStatus,
} from '../../domain/txRecords';
