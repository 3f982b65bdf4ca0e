import { concat, hexToBigInt, hexToNumber, numberToHex, size, slice, type Hex } from 'viem';

/**
 * CCTP v2's message and burn message layouts (Circle's MessageV2 and
 * BurnMessageV2; the sandbox contracts in contracts/ use the same bytes).
 * Offsets in bytes.
 */
const M = {
  version: 0,
  sourceDomain: 4,
  destinationDomain: 8,
  nonce: 12,
  sender: 44,
  recipient: 76,
  destinationCaller: 108,
  minFinality: 140,
  finalityExecuted: 144,
  body: 148,
} as const;
const B = {
  version: 0,
  burnToken: 4,
  mintRecipient: 36,
  amount: 68,
  messageSender: 100,
  maxFee: 132,
  feeExecuted: 164,
  expirationBlock: 196,
  hookData: 228,
} as const;

/** Finality thresholds of CCTP v2: fast transfers are attested at 1000 ("confirmed"), standard at 2000 ("finalized"). */
export const FINALITY_FAST = 1000;
export const FINALITY_STANDARD = 2000;

export interface MessageV2 {
  version: number;
  sourceDomain: number;
  destinationDomain: number;
  nonce: Hex;
  sender: Hex;
  recipient: Hex;
  destinationCaller: Hex;
  minFinalityThreshold: number;
  finalityThresholdExecuted: number;
  messageBody: Hex;
}

export interface BurnMessageV2 {
  version: number;
  burnToken: Hex;
  mintRecipient: Hex;
  amount: bigint;
  messageSender: Hex;
  maxFee: bigint;
  feeExecuted: bigint;
  expirationBlock: bigint;
  hookData: Hex;
}

/** Splits a v2 message into its fields; throws on one shorter than the header. */
export function decodeMessageV2(message: Hex): MessageV2 {
  if (size(message) < M.body) throw new Error(`CCTP v2 message too short: ${size(message)} bytes`);
  const u32 = (at: number) => hexToNumber(slice(message, at, at + 4));
  const b32 = (at: number) => slice(message, at, at + 32);
  return {
    version: u32(M.version),
    sourceDomain: u32(M.sourceDomain),
    destinationDomain: u32(M.destinationDomain),
    nonce: b32(M.nonce),
    sender: b32(M.sender),
    recipient: b32(M.recipient),
    destinationCaller: b32(M.destinationCaller),
    minFinalityThreshold: u32(M.minFinality),
    finalityThresholdExecuted: u32(M.finalityExecuted),
    messageBody: size(message) === M.body ? '0x' : slice(message, M.body),
  };
}

/** Whether `body` is long enough to be a v2 burn message (anything shorter is a plain message without fee fields). */
export function isBurnMessageBodyV2(body: Hex): boolean {
  return size(body) >= B.hookData;
}

/** Splits a v2 burn message body into its fields; throws on one shorter than the fixed part. */
export function decodeBurnMessageV2(body: Hex): BurnMessageV2 {
  if (size(body) < B.hookData) throw new Error(`CCTP v2 burn message too short: ${size(body)} bytes`);
  const b32 = (at: number) => slice(body, at, at + 32);
  return {
    version: hexToNumber(slice(body, B.version, B.version + 4)),
    burnToken: b32(B.burnToken),
    mintRecipient: b32(B.mintRecipient),
    amount: hexToBigInt(b32(B.amount)),
    messageSender: b32(B.messageSender),
    maxFee: hexToBigInt(b32(B.maxFee)),
    feeExecuted: hexToBigInt(b32(B.feeExecuted)),
    expirationBlock: hexToBigInt(b32(B.expirationBlock)),
    hookData: size(body) === B.hookData ? '0x' : slice(body, B.hookData),
  };
}

/** What the attestation service writes into a sent message before signing it. */
export interface AttestedFields {
  nonce: Hex;
  finalityThresholdExecuted: number;
  /** Burn messages only (0 for any other message). */
  feeExecuted: bigint;
  expirationBlock: bigint;
}

/**
 * The message as the attestation service signs it: `sent` (as in MessageSent,
 * nonce and executed fields empty) with the nonce, the finality reached and,
 * in the burn body, the fee executed and the expiration block written in.
 */
export function fillMessageV2(sent: Hex, fields: AttestedFields): Hex {
  const m = decodeMessageV2(sent);
  if (size(fields.nonce) !== 32) throw new Error('CCTP v2 nonce must be 32 bytes');
  const body = m.messageBody;
  // A message that is not a burn (sendMessage called directly) carries no fee fields.
  const isBurn = isBurnMessageBodyV2(body);
  if (!isBurn && fields.feeExecuted !== 0n) throw new Error('CCTP v2: a fee needs a burn message');
  const filledBody = !isBurn
    ? body
    : concat([
        slice(body, 0, B.feeExecuted),
        numberToHex(fields.feeExecuted, { size: 32 }),
        numberToHex(fields.expirationBlock, { size: 32 }),
        ...(size(body) > B.hookData ? [slice(body, B.hookData)] : []),
      ]);
  return concat([
    slice(sent, 0, M.nonce),
    fields.nonce,
    slice(sent, M.sender, M.finalityExecuted),
    numberToHex(fields.finalityThresholdExecuted, { size: 4 }),
    filledBody,
  ]);
}
