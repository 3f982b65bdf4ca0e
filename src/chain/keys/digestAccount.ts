import { hashMessage, hashTypedData, keccak256, serializeTransaction, serializeSignature, type Address, type Hex, type Signature } from 'viem';
import { toAccount, type LocalAccount } from 'viem/accounts';
import { hashAuthorization } from 'viem/utils';

/** Signs a 32-byte digest with a key the caller never sees. */
export type SignDigest = (digest: Hex) => Promise<Signature>;

/**
 * A viem account whose every signature is one digest signature: transactions
 * of every type (legacy to EIP-7702), EIP-712 typed data, messages, raw
 * digests and EIP-7702 authorizations hash here and sign through `sign`, as
 * viem's own private-key account does with its key.
 */
export function digestAccount(address: Address, sign: SignDigest): LocalAccount {
  return toAccount({
    address,
    async sign({ hash }) {
      return serializeSignature(await sign(hash));
    },
    async signMessage({ message }) {
      return serializeSignature(await sign(hashMessage(message)));
    },
    async signTypedData(typedData) {
      return serializeSignature(await sign(hashTypedData(typedData)));
    },
    async signAuthorization(authorization) {
      const contract = authorization.contractAddress ?? authorization.address;
      const signature = await sign(hashAuthorization({ address: contract, chainId: authorization.chainId, nonce: authorization.nonce }));
      return { address: contract, chainId: authorization.chainId, nonce: authorization.nonce, ...signature };
    },
    async signTransaction(transaction, { serializer = serializeTransaction } = {}) {
      // EIP-4844: the payload body is signed without the sidecars (as viem's signTransaction does).
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
      const signature = await sign(keccak256(await serializer(signable)));
      return serializer(transaction, signature);
    },
  });
}
