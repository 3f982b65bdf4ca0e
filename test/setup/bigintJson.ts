/**
 * Jest hands a failing test file's error to the parent process as JSON; viem's
 * errors carry BigInt fields (gas, values), which JSON refuses, and jest then
 * reports only "Do not know how to serialize a BigInt", hiding the error.
 * In the test processes a BigInt serialises as its decimal string.
 */
(BigInt.prototype as unknown as { toJSON(): string }).toJSON = function toJSON(this: bigint): string {
  return this.toString();
};
