import { BaseError, encodeFunctionData, keccak256, parseAbi, type Address, type Hex, type LocalAccount, type SignedAuthorization } from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import type { ChainName } from '../../../domain/chains';
import type { Clock } from '../../../domain/clock';
import { ServiceError } from '../../../domain/errors/base';
import { WouldRevertError, type SignedOperation, type TxRequest } from '../../../ports/chain';
import { TYPICAL_GAS } from '../../../ports/typicalGas';
import { servicePaymasterAbi } from '../../sandbox/abis';
import type { ChainAccess } from '../chainAccess';
import { encodeTx } from '../encodeTx';
import type { FeeEstimates } from '../feeEstimates';
import { isTransportError } from '../nodeErrors';
import type { NonceSender } from '../nonceSender';
import type { ServiceAccounts } from '../serviceAccounts';
import { delegatesTo } from './delegation';
import { failingCall } from './operationOutcome';
import { OPERATION_LIMITS, SPONSORSHIP_SECONDS, unsignedOperation, withSponsorship, type PackedUserOperation } from './userOperation';

/** Simple7702Account v0.8's batch entry point. */
const delegateAbi = parseAbi(['struct Call { address target; uint256 value; bytes data; }', 'function executeBatch(Call[] calls)']);

/** Gas the bundle (handleOps) may use beyond what its operation's limits add up to: the EntryPoint's own work and an authorization. */
const BUNDLE_OVERHEAD_GAS = 100_000n;

export interface OperationContext {
  access: ChainAccess;
  sendWithNonce: NonceSender;
  fees: FeeEstimates;
  accounts: ServiceAccounts;
  clock: Pick<Clock, 'now'>;
}

/** The chain's ERC-4337 contracts, required on a chain whose account model is 7702. */
function erc4337Of(ctx: OperationContext, chain: ChainName) {
  const d = ctx.access.client(chain).deployment;
  if (d.accountModel !== '7702' || d.erc4337 === undefined) {
    throw new ServiceError('INVALID_CHAIN', `${chain} does not run user operations (account model ${d.accountModel ?? 'plain'})`, { details: { chain } });
  }
  return d.erc4337;
}

/** Runtime code of the delegate per chain, for the simulation's state override (a wallet not delegated yet runs as if it were). */
const delegateCode = new Map<string, Hex>();

/**
 * The calls as the wallet's account runs them, simulated: an eth_call from the
 * EntryPoint to the wallet (its code overridden with the delegate's, so a
 * wallet not yet delegated is judged as it will be). A revert names the
 * failing call (ExecuteError's index) and its reason.
 */
async function simulate(
  ctx: OperationContext,
  chain: ChainName,
  wallet: Address,
  entryPoint: Address,
  delegate: Address,
  callData: Hex,
  gas: bigint,
  kinds: TxRequest['kind'][],
): Promise<void> {
  const key = `${chain}:${delegate}`;
  let code = delegateCode.get(key);
  if (code === undefined) {
    code = (await ctx.access.call(chain, (c) => c.client.getCode({ address: delegate }))) ?? '0x';
    if (code === '0x') throw new ServiceError('INVALID_CHAIN', `No Simple7702Account at ${delegate} on ${chain}`, { details: { chain, delegate } });
    delegateCode.set(key, code);
  }
  const override = code;
  await ctx.access.call(chain, (c) =>
    c.client.call({ account: entryPoint, to: wallet, data: callData, gas, stateOverride: [{ address: wallet, code: override }] }).catch((e: unknown) => {
      if (isTransportError(e)) throw e;
      const data = revertData(e);
      const { index, reason } = failingCall(data, kinds.length);
      const at = index ?? kinds.length - 1;
      throw new WouldRevertError(chain, kinds[at]!, reason, at);
    }),
  );
}

/** The revert data a node error carries, '0x' when none. */
function revertData(e: unknown): Hex {
  if (!(e instanceof BaseError)) return '0x';
  const withData = e.walk((x) => typeof (x as { data?: unknown }).data === 'string') as { data?: Hex } | null;
  return withData?.data ?? '0x';
}

/**
 * ChainPort.sendOperation (see the port). The wallet's code says whether it
 * is delegated to Simple7702Account; when not (none, or changed by other
 * code), an authorization the wallet signs at its current nonce rides in the
 * bundle (type 4). The calls are simulated first (unless `gasIfReverts`, the
 * sandbox's injected reverts: then they are sent to revert on chain). The
 * paymaster's sponsorship is signed by the gas tank over the paymaster's
 * getHash, the operation by the wallet over the EntryPoint's userOpHash, and
 * the gas tank sends handleOps([op], gasTank) at its shared nonce, handing
 * the signed bundle to `onSigned` before it is broadcast.
 */
export async function sendOperation(
  ctx: OperationContext,
  wallet: LocalAccount,
  chain: ChainName,
  calls: readonly TxRequest[],
  onSigned: (signed: SignedOperation) => Promise<void>,
  gasIfReverts?: bigint,
): Promise<SignedOperation> {
  if (calls.length === 0) throw new ServiceError('INTERNAL_ERROR', 'A user operation with no calls', { details: { chain } });
  const { access } = ctx;
  const c = access.client(chain);
  const { entryPoint, delegate, paymaster } = erc4337Of(ctx, chain);
  const encoded = calls.map((tx) => encodeTx(c, tx, wallet.address));
  const callData = encodeFunctionData({
    abi: delegateAbi,
    functionName: 'executeBatch',
    args: [encoded.map((e) => ({ target: e.to, value: 0n, data: e.data }))],
  });
  const kinds = calls.map((tx) => tx.kind);
  const typical = kinds.reduce((sum, k) => sum + TYPICAL_GAS[k] + OPERATION_LIMITS.perCall, 0n);
  const callGasLimit = gasIfReverts ?? (typical * 3n) / 2n;

  const [code, opNonce, fees, latest] = await Promise.all([
    access.call(chain, (x) => x.client.getCode({ address: wallet.address })),
    access.call(chain, (x) => x.client.readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [wallet.address, 0n] })),
    ctx.fees.get(chain),
    access.call(chain, (x) => x.client.getBlock({ blockTag: 'latest' })),
    gasIfReverts === undefined ? simulate(ctx, chain, wallet.address, entryPoint, delegate, callData, callGasLimit, kinds) : Promise.resolve(),
  ]);
  const delegated = delegatesTo(code, delegate);
  let authorization: SignedAuthorization | undefined;
  if (!delegated) {
    const nonce = await access.call(chain, (x) => x.client.getTransactionCount({ address: wallet.address, blockTag: 'pending' }));
    authorization = await wallet.signAuthorization!({ contractAddress: delegate, chainId: c.chain.id, nonce });
  }

  let op: PackedUserOperation = unsignedOperation(wallet.address, opNonce, callData, paymaster, {
    verificationGasLimit: OPERATION_LIMITS.verificationGasLimit,
    callGasLimit,
    preVerificationGas: OPERATION_LIMITS.preVerificationGas,
    paymasterVerificationGasLimit: OPERATION_LIMITS.paymasterVerificationGasLimit,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  // The sponsorship's window is the chain's time: a chain's clock is not ours (a devnet moved forward, a testnet's drift).
  const validUntil = Number(latest.timestamp) + SPONSORSHIP_SECONDS;
  const sponsorHash = await access.call(chain, (x) =>
    x.client.readContract({ address: paymaster, abi: servicePaymasterAbi, functionName: 'getHash', args: [op, validUntil, 0] }),
  );
  op = withSponsorship(op, validUntil, 0, await ctx.accounts.gasTank.signMessage({ message: { raw: sponsorHash } }));
  const userOpHash = await access.call(chain, (x) =>
    x.client.readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: 'getUserOpHash', args: [op] }),
  );
  op = { ...op, signature: await wallet.sign!({ hash: userOpHash }) };

  const bundler = ctx.accounts.gasTank;
  const data = encodeFunctionData({ abi: entryPoint08Abi, functionName: 'handleOps', args: [[op], bundler.address] });
  const gas =
    OPERATION_LIMITS.verificationGasLimit +
    callGasLimit +
    OPERATION_LIMITS.preVerificationGas +
    OPERATION_LIMITS.paymasterVerificationGasLimit +
    BUNDLE_OVERHEAD_GAS;
  // The gas tank's next nonce (shared with every instance through the store's allocator); signed, persisted by onSigned, then broadcast.
  return ctx.sendWithNonce(
    chain,
    bundler,
    async () => undefined,
    async (nonce): Promise<SignedOperation> => {
      const base = { chainId: c.chain.id, to: entryPoint, data, nonce, gas, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
      const raw = authorization
        ? await bundler.signTransaction({ ...base, type: 'eip7702', authorizationList: [authorization] })
        : await bundler.signTransaction({ ...base, type: 'eip1559' });
      const s: SignedOperation = {
        chain,
        kind: kinds.at(-1)!,
        txHash: keccak256(raw),
        from: bundler.address,
        nonce,
        raw,
        userOpHash,
        opNonce,
        delegated: authorization !== undefined,
      };
      await onSigned(s);
      return s;
    },
  );
}
