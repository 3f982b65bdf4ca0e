import { createWalletClient, http, isAddress, isHex, publicActions, recoverTypedDataAddress, type Address, type Hex } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes, toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { CHAINS, type ChainName } from '../../domain/chains';
import { sandboxTokenAbi } from '../sandbox/abis';
import type { ChainClient } from '../viem/chainClients';
import { PaymentRejected, type PaymentOffer, type PaymentProof, type PaymentVerifier, type Settlement, type VerifiedPayment } from '../../ports/payments';

/** docs/api-guide.md, "Paying per request": 0.001 USD per read, in USDC's 6-decimal units. */
export const PRICE_UNITS = '1000';
/** How long a signed authorization may take to reach us. */
const MAX_TIMEOUT_SECONDS = 60;
const DESCRIPTION = 'One read of the wallet and intents API (0.001 USDC)';
/** The networks a paid read is offered on, in order of preference (the API: Base, Ethereum; Sei is not offered yet). */
const PAYMENT_CHAINS: readonly ChainName[] = ['base-sepolia', 'ethereum-sepolia'];
/** x402 v1 names networks; its list has Base Sepolia but no Ethereum Sepolia (an unknown one makes v1 clients throw). */
const V1_NETWORK: Partial<Record<ChainName, string>> = { 'base-sepolia': 'base-sepolia' };

const caip = (chain: ChainName): string => `eip155:${CHAINS[chain].chainId}`;
const same = (a: unknown, b: unknown): boolean => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** The EIP-3009 TransferWithAuthorization an "exact" EVM payment signs. */
interface EvmAuthorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

interface Market {
  chain: ChainName;
  accept: PaymentRequirements;
}

export interface X402Options {
  /** Chain clients of the networks to offer (those configured among PAYMENT_CHAINS). */
  clients: (chain: ChainName) => ChainClient | undefined;
  /** Sends settlements (its own nonces: never the gas tank's, which the engine uses); an account of the key provider. */
  settler: LocalAccount;
  /** Receives the payments. */
  payTo: Address;
  /** Told about a payment network left out because its node did not answer at start. */
  onUnavailable?: (chain: ChainName, err: unknown) => void;
}

/**
 * The payment port over the x402 project's packages: an in-process
 * facilitator (`x402Facilitator` + the exact EVM scheme) verifies and settles
 * over the chain port's own RPC endpoints, so it works offline on the sandbox
 * devnets and on the public test networks alike. Requirements name USDC with
 * the EIP-712 name and version the token reports on chain (clients sign with
 * exactly those).
 */
export async function createX402Payments(o: X402Options): Promise<PaymentVerifier> {
  const settler = o.settler;
  const facilitator = new x402Facilitator();
  const markets: Market[] = [];
  for (const chain of PAYMENT_CHAINS) {
    const c = o.clients(chain);
    const asset = c?.deployment.tokens.USDC;
    if (!c || !asset) continue;
    let name: string;
    let version: string;
    try {
      [name, version] = await Promise.all([
        c.client.readContract({ address: asset, abi: sandboxTokenAbi, functionName: 'name' }),
        c.client.readContract({ address: asset, abi: sandboxTokenAbi, functionName: 'version' }),
      ]);
    } catch (err) {
      // A network whose node is down is not offered; the others still are (a start never hangs on one chain).
      o.onUnavailable?.(chain, err);
      continue;
    }
    markets.push({
      chain,
      accept: {
        scheme: 'exact',
        network: caip(chain) as PaymentRequirements['network'],
        asset,
        amount: PRICE_UNITS,
        payTo: o.payTo,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        extra: { name, version },
      },
    });
  }
  if (markets.length === 0) throw new Error('x402: none of the payment networks (base-sepolia, ethereum-sepolia) is configured and answering');
  // registerExactEvmScheme also registers v1 on every network with the signer it is given, and the
  // first registration answers: Base Sepolia (first in PAYMENT_CHAINS) goes first, so v1 settles on Base.
  for (const m of markets) {
    const c = o.clients(m.chain)!;
    const wallet = createWalletClient({ account: settler, chain: c.chain, transport: http(c.deployment.rpcUrl, { retryCount: 0 }) }).extend(publicActions);
    // viem's own client, typed by the viem release the x402 packages were built against
    const signer = toFacilitatorEvmSigner(Object.assign(wallet, { address: settler.address }) as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]);
    registerExactEvmScheme(facilitator, { signer, networks: m.accept.network });
  }

  const v1Accept = (m: Market, resource: string) => ({
    scheme: 'exact',
    network: V1_NETWORK[m.chain]!,
    maxAmountRequired: PRICE_UNITS,
    resource,
    description: DESCRIPTION,
    mimeType: 'application/json',
    payTo: o.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    asset: m.accept.asset,
    extra: m.accept.extra,
  });

  function decode(proof: PaymentProof): PaymentPayload {
    let decoded: unknown;
    try {
      decoded = decodePaymentSignatureHeader(proof.value.trim());
    } catch {
      throw new PaymentRejected('malformed_proof', `${proof.header} is not base64-encoded JSON`);
    }
    const p = decoded as Partial<PaymentPayload> & { network?: string; scheme?: string };
    if (typeof p !== 'object' || p === null || (p.x402Version !== 1 && p.x402Version !== 2) || typeof p.payload !== 'object' || p.payload === null) {
      throw new PaymentRejected('invalid_payload', `${proof.header} is not an x402 payment payload (x402Version 1 or 2 with a payload)`);
    }
    return p as PaymentPayload;
  }

  /** Our requirements the payload answers, or why none. */
  function requirementsFor(payload: PaymentPayload, resource: string): { market: Market; requirements: PaymentRequirements } {
    if (payload.x402Version === 2) {
      const a = payload.accepted as Partial<PaymentRequirements> | undefined;
      const market = markets.find(
        (m) =>
          a &&
          a.scheme === 'exact' &&
          a.network === m.accept.network &&
          same(a.asset, m.accept.asset) &&
          same(a.payTo, m.accept.payTo) &&
          a.amount === m.accept.amount,
      );
      if (!market)
        throw new PaymentRejected(
          'requirements_mismatch',
          'The payment does not answer these requirements (scheme, network, asset, payee and amount must be as offered)',
        );
      return { market, requirements: market.accept };
    }
    const v1 = payload as unknown as { scheme?: string; network?: string };
    const market = markets.find((m) => V1_NETWORK[m.chain] !== undefined && v1.network === V1_NETWORK[m.chain] && v1.scheme === 'exact');
    if (!market) throw new PaymentRejected('requirements_mismatch', 'A v1 payment must be scheme exact on base-sepolia');
    return { market, requirements: v1Accept(market, resource) as unknown as PaymentRequirements };
  }

  /** The proof decoded and matched to our requirements, its authorization and nonce key: everything checked without a chain call. */
  function read(proof: PaymentProof, resource: string) {
    const payload = decode(proof);
    const { market, requirements } = requirementsFor(payload, resource);
    const authorization = (payload.payload as { authorization?: Partial<Record<keyof EvmAuthorization, unknown>> }).authorization;
    if (typeof authorization?.from !== 'string' || !isAddress(authorization.from) || typeof authorization.nonce !== 'string') {
      throw new PaymentRejected('invalid_payload', 'The payment carries no EIP-3009 authorization (from, nonce)');
    }
    const nonceKey = `${market.accept.network}:${authorization.from.toLowerCase()}:${authorization.nonce.toLowerCase()}`;
    return {
      payload,
      market,
      requirements,
      authorization: authorization as Partial<EvmAuthorization> & Pick<EvmAuthorization, 'from' | 'nonce'>,
      nonceKey,
      signature: (payload.payload as { signature?: unknown }).signature,
    };
  }

  /**
   * Whether the EIP-712 signature recovers to `from`: local ECDSA recovery, no
   * RPC. False for anything else (a forgery, a malformed field, a contract
   * wallet's signature, which only `verify` can check on chain).
   */
  async function signedByFrom(r: ReturnType<typeof read>): Promise<boolean> {
    const { authorization: a, requirements, market, signature } = r;
    const extra = requirements.extra as { name?: unknown; version?: unknown } | undefined;
    if (typeof signature !== 'string' || !isHex(signature) || typeof extra?.name !== 'string' || typeof extra.version !== 'string') return false;
    try {
      const signer = await recoverTypedDataAddress({
        domain: { name: extra.name, version: extra.version, chainId: CHAINS[market.chain].chainId, verifyingContract: requirements.asset as Address },
        types: authorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message: {
          from: a.from,
          to: a.to as Address,
          value: BigInt(a.value as string),
          validAfter: BigInt(a.validAfter as string),
          validBefore: BigInt(a.validBefore as string),
          nonce: a.nonce as Hex,
        },
        signature,
      });
      return same(signer, a.from);
    } catch {
      return false;
    }
  }

  return {
    async offer(resource) {
      const required: PaymentRequired = {
        x402Version: 2,
        error: 'Payment required',
        resource: { url: resource, description: DESCRIPTION, mimeType: 'application/json' },
        accepts: markets.map((m) => m.accept),
      };
      const v1Markets = markets.filter((m) => V1_NETWORK[m.chain] !== undefined);
      return {
        header: encodePaymentRequiredHeader(required),
        v1: { x402Version: 1, accepts: v1Markets.map((m) => v1Accept(m, resource)) },
      } satisfies PaymentOffer;
    },

    async inspect(proof, resource) {
      const r = read(proof, resource);
      return { payer: r.authorization.from.toLowerCase(), nonceKey: r.nonceKey, signedByPayer: await signedByFrom(r) };
    },

    async verify(proof, resource): Promise<VerifiedPayment> {
      const { payload, market, requirements, authorization, nonceKey } = read(proof, resource);
      let verdict;
      try {
        verdict = await facilitator.verify(payload, requirements);
      } catch (e) {
        throw new PaymentRejected('invalid_payload', `The payment could not be verified: ${(e as Error).message}`, nonceKey);
      }
      if (!verdict.isValid) {
        const reason = String(verdict.invalidReason ?? 'invalid_payment');
        const message = typeof verdict.invalidMessage === 'string' ? verdict.invalidMessage : `Payment refused: ${reason}`;
        throw new PaymentRejected(reason, message, nonceKey);
      }
      const version = payload.x402Version === 1 ? 1 : 2;
      return {
        version,
        payer: verdict.payer ?? authorization.from,
        network: market.accept.network,
        nonceKey,
        async settle(): Promise<Settlement> {
          try {
            const r = await facilitator.settle(payload, requirements);
            return {
              success: r.success,
              transaction: r.transaction,
              network: r.network,
              payer: r.payer ?? String(authorization.from),
              errorReason: r.errorReason === undefined ? undefined : String(r.errorReason),
            };
          } catch (e) {
            return { success: false, transaction: '', network: market.accept.network, payer: String(authorization.from), errorReason: (e as Error).message };
          }
        },
        responseHeader(s) {
          return {
            name: version === 2 ? 'PAYMENT-RESPONSE' : 'X-PAYMENT-RESPONSE',
            value: encodePaymentResponseHeader(s as Parameters<typeof encodePaymentResponseHeader>[0]),
          };
        },
      };
    },
  };
}
