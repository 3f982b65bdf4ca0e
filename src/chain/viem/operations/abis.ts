import { parseAbi } from 'viem';

export { entryPoint08Abi } from 'viem/account-abstraction';

/**
 * Simple7702Account v0.8 (ERC-4337's EIP-7702 delegate), the part the
 * service calls: `executeBatch` runs the calls in order; with more than one
 * call a failing one reverts `ExecuteError(index, its revert data) (named `error` in the source, a word parseAbi keeps)`, a single
 * call's revert data is bubbled up as is.
 */
export const simple7702Abi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
  'error ExecuteError(uint256 index, bytes data)',
]);
