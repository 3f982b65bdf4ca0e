import { slice, type Hex } from 'viem';
import { decodeBurnMessageV2, decodeMessageV2, isBurnMessageBodyV2, type MessageV2 } from '../../cctp/messageV2';

/**
 * One entry of Circle's `GET /v2/messages/{sourceDomain}` answer, as its
 * documentation and Circle's own clients (`@circle-fin/provider-cctp-v2`)
 * show it: numbers as decimal strings, addresses as 20-byte lowercase hex,
 * `destinationCaller` as 32 bytes, empty hook data as null.
 */
export interface IrisMessage {
  /** The message to mint with (nonce and executed fields filled); "0x" while pending. */
  message: Hex;
  eventNonce: Hex;
  /** Concatenated 65-byte signatures; "PENDING" while pending. */
  attestation: Hex | 'PENDING';
  decodedMessage: IrisDecodedMessage;
  cctpVersion: 2;
  status: 'complete' | 'pending_confirmations';
  delayReason: string | null;
}

export interface IrisDecodedMessage {
  sourceDomain: string;
  destinationDomain: string;
  nonce: Hex;
  sender: Hex;
  recipient: Hex;
  destinationCaller: Hex;
  minFinalityThreshold: string;
  finalityThresholdExecuted: string;
  messageBody: Hex;
  decodedMessageBody: IrisDecodedBurn | null;
}

export interface IrisDecodedBurn {
  burnToken: Hex;
  mintRecipient: Hex;
  amount: string;
  messageSender: Hex;
  maxFee: string;
  feeExecuted: string;
  expirationBlock: string;
  hookData: Hex | null;
}

/** What the server knows of one message: as sent, its nonce, and once complete the signed message. */
export interface SeenMessage {
  sent: Hex;
  nonce: Hex;
  delayReason: string | null;
  signed?: { message: Hex; attestation: Hex };
}

/** The JSON entry for `s`: the signed message once complete, else the sent one with its nonce. */
export function irisMessage(s: SeenMessage): IrisMessage {
  const decoded = decodeMessageV2(s.signed?.message ?? s.sent);
  return {
    message: s.signed?.message ?? '0x',
    eventNonce: s.nonce,
    attestation: s.signed?.attestation ?? 'PENDING',
    decodedMessage: decodedMessage({ ...decoded, nonce: s.nonce }),
    cctpVersion: 2,
    status: s.signed ? 'complete' : 'pending_confirmations',
    delayReason: s.delayReason,
  };
}

function decodedMessage(m: MessageV2): IrisDecodedMessage {
  return {
    sourceDomain: String(m.sourceDomain),
    destinationDomain: String(m.destinationDomain),
    nonce: m.nonce,
    sender: address(m.sender),
    recipient: address(m.recipient),
    destinationCaller: m.destinationCaller,
    minFinalityThreshold: String(m.minFinalityThreshold),
    finalityThresholdExecuted: String(m.finalityThresholdExecuted),
    messageBody: m.messageBody,
    decodedMessageBody: isBurnMessageBodyV2(m.messageBody) ? decodedBurn(m.messageBody) : null,
  };
}

function decodedBurn(body: Hex): IrisDecodedBurn {
  const b = decodeBurnMessageV2(body);
  return {
    burnToken: address(b.burnToken),
    mintRecipient: address(b.mintRecipient),
    amount: b.amount.toString(),
    messageSender: address(b.messageSender),
    maxFee: b.maxFee.toString(),
    feeExecuted: b.feeExecuted.toString(),
    expirationBlock: b.expirationBlock.toString(),
    hookData: b.hookData === '0x' ? null : b.hookData,
  };
}

/** The low 20 bytes of a bytes32 EVM address, lowercase. */
function address(b32: Hex): Hex {
  return slice(b32, 12).toLowerCase() as Hex;
}
