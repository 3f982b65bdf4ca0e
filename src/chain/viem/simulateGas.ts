import { encodeAbiParameters, keccak256, pad, parseEther, toHex, type Address, type Hex } from 'viem';
import type { ChainName } from '../../domain/chains';
import type { AssumedFunds } from '../../ports/chain';
import type { ChainAccess } from './chainAccess';
import { spenderAddress, token } from './encodeTx';
import { isTransportError } from './nodeErrors';

/**
 * Where a token keeps `balanceOf` and `allowance`, for the simulation's state
 * override: Circle's USDC (FiatTokenV2_2, the sandbox's and the real
 * networks') keeps them in slots 9 (`balanceAndBlacklistStates`) and 10
 * (`allowed`); the sandbox's other tokens (contracts/SandboxToken.sol) in 4
 * and 5. Against a token laid out otherwise the simulated call reverts and
 * the typical figure is used instead.
 */
const TOKEN_SLOTS: Readonly<Record<'USDC' | 'other', { balance: bigint; allowance: bigint }>> = {
  USDC: { balance: 9n, allowance: 10n },
  other: { balance: 4n, allowance: 5n },
};
/** Gas a simulation may try at most (far above any transaction of the service). */
const SIMULATION_GAS_CAP = 3_000_000n;

/** The storage slot of `mapping(address => …)` at `slot`, for `key`. */
const mappingSlot = (key: Address, slot: bigint | Hex): Hex =>
  keccak256(
    typeof slot === 'bigint'
      ? encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot])
      : encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [key, slot]),
  );

/**
 * The least gas with which `to`/`data` succeeds when `from` holds `assume`
 * (eth_call under a state override; Hardhat's eth_estimateGas takes none):
 * a search between 21,000 and the cap, to 0.5 %. Null when it fails even
 * with the cap (it would revert, or the token is laid out otherwise).
 */
export async function simulateGas(
  access: ChainAccess,
  chain: ChainName,
  from: Address,
  to: Address,
  data: Hex,
  assume: AssumedFunds,
  typical: bigint,
): Promise<bigint | null> {
  const c = access.client(chain);
  const d = c.deployment;
  const tokenAddress = token(d, assume.asset);
  const amount = pad(toHex(assume.amount));
  const slots = TOKEN_SLOTS[assume.asset === 'USDC' ? 'USDC' : 'other'];
  const stateOverride = [
    {
      address: tokenAddress,
      stateDiff: [
        { slot: mappingSlot(from, slots.balance), value: amount },
        { slot: mappingSlot(spenderAddress(c, assume.spender, assume.asset), mappingSlot(from, slots.allowance)), value: amount },
      ],
    },
    { address: from, balance: parseEther('1') },
  ];
  const succeeds = (gas: bigint): Promise<boolean> =>
    access.call(chain, (c) =>
      c.client.call({ account: from, to, data, gas, stateOverride }).then(
        () => true,
        (e: unknown) => {
          if (isTransportError(e)) throw e;
          return false;
        },
      ),
    );
  let hi = typical * 2n;
  if (!(await succeeds(hi))) {
    hi = SIMULATION_GAS_CAP;
    if (!(await succeeds(hi))) return null;
  }
  let lo = 21_000n;
  while (hi - lo > hi / 200n) {
    const mid = (lo + hi) / 2n;
    if (await succeeds(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
