import { concat, type Address, type Hex } from 'viem';

/** EIP-7702: an account delegated to `delegate` has exactly this code. */
export const designatorOf = (delegate: Address): Hex => concat(['0xef0100', delegate]).toLowerCase() as Hex;

/** Whether `code` (an account's, as eth_getCode answers) delegates to `delegate`: anything else (none, another delegate) is signed again. */
export const delegatesTo = (code: Hex | undefined, delegate: Address): boolean => (code ?? '0x').toLowerCase() === designatorOf(delegate);
