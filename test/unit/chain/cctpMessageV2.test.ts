import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { concat, numberToHex, pad, size, slice, type Hex } from 'viem';
import { cctpFee } from '../../../src/domain/cctpFee';
import { decodeBurnMessageV2, decodeMessageV2, fillMessageV2 } from '../../../src/chain/cctp/messageV2';

const TOKEN: Hex = '0x1c7d4b196cb0c7b01d743fbc6116a902379c7238';
const RECIPIENT: Hex = '0x23f9a5bea7b92a0638520607407bc7f0310aeed4';
const SENDER: Hex = '0xc5567a5e3370d4dbfb0540025078e283e36a363d';
const MESSENGER: Hex = '0x8fe6b999dc680ccfdd5bf7eb0974218be2542daa';

/** A message as MessageTransmitterV2 emits it: nonce, finality executed, fee executed and expiration empty. */
function sentMessage(hookData: Hex = '0x'): Hex {
  const u32 = (n: number) => numberToHex(n, { size: 4 });
  const u256 = (n: bigint) => numberToHex(n, { size: 32 });
  const body = concat([u32(1), pad(TOKEN), pad(RECIPIENT), u256(100_000n), pad(SENDER), u256(11n), u256(0n), u256(0n), hookData]);
  return concat([u32(1), u32(0), u32(6), pad('0x0'), pad(MESSENGER), pad(MESSENGER), pad('0x0'), u32(1000), u32(0), body]);
}

describe('CCTP v2 message codec', () => {
  test('behavior: fillMessageV2 writes nonce, finality executed, fee and expiration and leaves every other byte', () => {
    const nonce: Hex = `0x${'ab'.repeat(32)}`;
    const sent = sentMessage('0xcafe');
    const filled = fillMessageV2(sent, { nonce, finalityThresholdExecuted: 1000, feeExecuted: 10n, expirationBlock: 32_944_472n });
    expect(size(filled)).toBe(size(sent));
    const m = decodeMessageV2(filled);
    expect(m).toMatchObject({ version: 1, sourceDomain: 0, destinationDomain: 6, nonce, minFinalityThreshold: 1000, finalityThresholdExecuted: 1000 });
    expect(decodeBurnMessageV2(m.messageBody)).toEqual({
      version: 1,
      burnToken: pad(TOKEN),
      mintRecipient: pad(RECIPIENT),
      amount: 100_000n,
      messageSender: pad(SENDER),
      maxFee: 11n,
      feeExecuted: 10n,
      expirationBlock: 32_944_472n,
      hookData: '0xcafe',
    });
    // Unfilled, the same fields decode as empty: only the filled ones changed.
    expect(decodeBurnMessageV2(decodeMessageV2(sent).messageBody)).toMatchObject({ feeExecuted: 0n, expirationBlock: 0n, hookData: '0xcafe' });
  });

  test('behavior: refilling the sample attestation Circle ships in @circle-fin/provider-cctp-v2 gives back its exact bytes', () => {
    const bundle = readFileSync(require.resolve('@circle-fin/provider-cctp-v2'), 'utf8');
    const start = bundle.indexOf('const mockAttestationMessage = {');
    const sample = runInNewContext(`(${bundle.slice(bundle.indexOf('{', start), bundle.indexOf('\n};', start) + 2)})`) as {
      message: Hex;
      eventNonce: Hex;
      decodedMessage: { finalityThresholdExecuted: string; decodedMessageBody: { feeExecuted: string; expirationBlock: string; amount: string } };
    };
    const filled = decodeMessageV2(sample.message);
    const burnBody = decodeBurnMessageV2(filled.messageBody);
    expect(filled.nonce).toBe(sample.eventNonce);
    expect(burnBody.amount).toBe(BigInt(sample.decodedMessage.decodedMessageBody.amount));
    // Empty what the attestation service fills, as MessageSent carries the message, then fill it again.
    const zero32 = pad('0x0');
    const sent = concat([
      slice(sample.message, 0, 12),
      zero32,
      slice(sample.message, 44, 144),
      numberToHex(0, { size: 4 }),
      slice(filled.messageBody, 0, 164),
      zero32,
      zero32,
      ...(burnBody.hookData === '0x' ? [] : [burnBody.hookData]),
    ]);
    const d = sample.decodedMessage;
    expect(
      fillMessageV2(sent, {
        nonce: sample.eventNonce,
        finalityThresholdExecuted: Number(d.finalityThresholdExecuted),
        feeExecuted: BigInt(d.decodedMessageBody.feeExecuted),
        expirationBlock: BigInt(d.decodedMessageBody.expirationBlock),
      }),
    ).toBe(sample.message);
  });

  test('error: a short message, a short nonce, or a fee on a message that is not a burn are refused', () => {
    expect(() => decodeMessageV2('0x00')).toThrow('too short');
    expect(() => fillMessageV2(sentMessage(), { nonce: '0x01', finalityThresholdExecuted: 1000, feeExecuted: 0n, expirationBlock: 0n })).toThrow('32 bytes');
    const plain = sentMessage().slice(0, 2 + 148 * 2 + 8) as Hex;
    expect(() => fillMessageV2(plain, { nonce: pad('0x1'), finalityThresholdExecuted: 2000, feeExecuted: 1n, expirationBlock: 0n })).toThrow('needs a burn');
    expect(
      decodeMessageV2(fillMessageV2(plain, { nonce: pad('0x1'), finalityThresholdExecuted: 2000, feeExecuted: 0n, expirationBlock: 0n }))
        .finalityThresholdExecuted,
    ).toBe(2000);
  });

  test('behavior: cctpFee rounds up, keeps hundredths of a basis point, and is 0 at 0 bps', () => {
    expect(cctpFee(25_000_000n, 1.3)).toBe(3_250n);
    expect(cctpFee(1n, 1)).toBe(1n);
    expect(cctpFee(10_000n, 1)).toBe(1n);
    expect(cctpFee(10_001n, 1)).toBe(2n);
    expect(cctpFee(123_456_789n, 0)).toBe(0n);
    expect(() => cctpFee(1n, -1)).toThrow(RangeError);
  });
});
