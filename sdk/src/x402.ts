import type { ClientEvmSigner } from '@x402/evm';

// @x402/fetch and @x402/evm (with viem) load on first use: a client with an API key never needs them.
/* eslint-disable @typescript-eslint/no-require-imports */
const x402Fetch = (): typeof import('@x402/fetch') => require('@x402/fetch');
const x402Evm = (): typeof import('@x402/evm') => require('@x402/evm');
/* eslint-enable @typescript-eslint/no-require-imports */

/** Who pays for keyless reads: a viem LocalAccount (`privateKeyToAccount(…)`) or any signer of EIP-712 typed data with an address. */
export type X402Signer = ClientEvmSigner;

/** The x402 networks the service offers payment on (CAIP-2): Base Sepolia first, then Ethereum Sepolia. */
export const DEFAULT_PAYMENT_NETWORKS = ['eip155:84532', 'eip155:11155111'] as const;

export interface X402FetchOptions {
  /** The networks the signer may pay on (default DEFAULT_PAYMENT_NETWORKS); the service's first offer on one of them is paid. */
  networks?: readonly `${string}:${string}`[] | undefined;
  /** The fetch to wrap (default globalThis.fetch). */
  fetch?: typeof globalThis.fetch | undefined;
}

/**
 * A fetch that pays for the service's keyless reads over x402: a request
 * answered 402 PAYMENT_REQUIRED is signed for (an EIP-3009 USDC
 * authorization, 0.001 USDC, no gas for the payer) and sent again with the
 * proof in PAYMENT-SIGNATURE (x402 v2); other answers pass through unchanged.
 * Built on the ecosystem's own client (@x402/fetch with @x402/evm's exact
 * scheme). Give it to createClient as `payer`, or call it directly:
 *
 * ```ts
 * import { privateKeyToAccount } from 'viem/accounts';
 * const pay = createX402Fetch(privateKeyToAccount(process.env.PAYER_KEY as `0x${string}`));
 * const res = await pay('http://127.0.0.1:3000/v1/yields');
 * settlementOf(res); // { success: true, transaction: '0x…', network: 'eip155:84532', … }
 * ```
 */
export function createX402Fetch(signer: X402Signer, o: X402FetchOptions = {}): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const networks = o.networks ?? DEFAULT_PAYMENT_NETWORKS;
  const base = o.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init));
  const { ExactEvmScheme } = x402Evm();
  return x402Fetch().wrapFetchWithPaymentFromConfig(base, { schemes: networks.map((network) => ({ network, client: new ExactEvmScheme(signer) })) });
}

/** The settlement of a paid answer (its PAYMENT-RESPONSE header, x402 v2): the transaction, network and payer; undefined when it was not paid. */
export function settlementOf(response: Response): ReturnType<typeof import('@x402/fetch').decodePaymentResponseHeader> | undefined {
  const header = response.headers.get('payment-response');
  return header === null ? undefined : x402Fetch().decodePaymentResponseHeader(header);
}
