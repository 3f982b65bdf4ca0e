import { ServiceError } from '../../domain/errors/base';
import { parseEther } from 'viem';
import { createSystemClock } from '../../domain/clock';
import { FaultRegistry } from '../../domain/sandboxFaults';
import type { SandboxManifest } from '../../ports/deploymentManifest';
import { createAttestationClient, IRIS_SANDBOX_URL, type AttestationClient } from '../cctp/attestationClient';
import { attest } from './attest';
import { createChainAccess } from './chainAccess';
import { createChainClients } from './chainClients';
import { estimateGas } from './estimateGas';
import { createEthUsdPrices } from './ethUsdPrices';
import { createFeeEstimates } from './feeEstimates';
import { gasQuote, priceUsd } from './gasQuote';
import { messageReceived } from './messageReceived';
import { createNonceSender } from './nonceSender';
import { createPermitSigner, supplyPermit } from './permit';
import { readHoldings } from './readHoldings';
import { readSupplyIndex } from './readSupplyIndex';
import { readRates } from './readRates';
import { rebroadcast } from './rebroadcast';
import { findReceipt, isKnown, receipt } from './receipts';
import { replace } from './replace';
import { createRouteFees } from './routeFees';
import { send } from './send';
import { sendOperation } from './operations/sendOperation';
import { serviceAccounts } from './serviceAccounts';
import type { ViemChainPort, ViemChainPortOptions } from './viemPortOptions';

export type { ServiceKeys, ViemChainPort, ViemChainPortOptions } from './viemPortOptions';

/**
 * How long the fee route's tiers are kept: a plan's fee is at most this old.
 * Whatever it is, the burn's maxFee (the planned fee) caps what the mint
 * keeps back; a fee raised after planning makes the service attest the burn
 * as standard (free) instead, as Circle does, and a fee lowered is charged
 * lower (the mint's MintAndWithdraw says what arrived).
 */
const ROUTE_FEES_TTL_MS = 5_000;

/** The attestation service of the manifest (else Circle's testnet service), polled about as often as receipts. */
function defaultAttestations(manifest: SandboxManifest, pollMs: number): AttestationClient {
  return createAttestationClient({
    baseUrl: manifest.attestationApi ?? IRIS_SANDBOX_URL,
    // devnets attest in milliseconds: poll about as often as receipts are
    poll: { initialMs: Math.min(pollMs, 250), maxMs: 5_000 },
    // the engine retries a TIMEOUT (a mint after a confirmed burn, for as long as it takes), noting each try on the step
    timeoutMs: 60_000,
  });
}

/**
 * The ChainPort over viem and JSON-RPC, for sandbox devnets and configured
 * RPC endpoints alike. Each operation is its own module taking the few
 * things it needs (the chains' access, the service accounts, the nonce
 * sender, the ETH/USD prices); this factory builds those once and wires them.
 */
export function createViemChainPort(o: ViemChainPortOptions): ViemChainPort {
  const deployments = Object.values(o.manifest.chains).filter((d) => d !== undefined);
  const pollMs = o.pollingIntervalMs ?? 100;
  const clock = o.clock ?? createSystemClock();
  const faults = o.faults ?? new FaultRegistry();
  const access = createChainAccess(createChainClients(deployments, pollMs, o.rpcTimeoutMs, o.onRpc, o.protocols), faults);
  const accounts = o.accounts ?? serviceAccounts(o.keys!);
  const attestations = o.attestations ?? defaultAttestations(o.manifest, pollMs);
  const prices = createEthUsdPrices(access);
  const fees = createRouteFees(deployments, attestations, o.routeFeesTtlMs ?? ROUTE_FEES_TTL_MS, clock);
  const sendWithNonce = createNonceSender({ access, nonces: o.nonces, gapMs: o.nonceGapMs ?? 5_000, pollMs, clock, onNonceRetry: o.onNonceRetry });
  const feeEstimates = createFeeEstimates(access, { refreshMs: o.feeRefreshMs ?? 1_000, maxAgeMs: o.feeMaxAgeMs ?? 3_000 });
  const gas = {
    access,
    sendWithNonce,
    fees: feeEstimates,
    gasTank: accounts.gasTank,
    minGasWei: o.minGasWei ?? parseEther('0.01'),
    topUpWei: o.topUpWei ?? parseEther('0.1'),
  };
  const reads = { access, prices, pollMs, clock };
  const operations = { access, sendWithNonce, fees: feeEstimates, accounts, clock };
  const sending = { access, sendWithNonce, fees: feeEstimates, accounts, gas, permits: createPermitSigner(access) };

  return {
    chains: deployments.map((d) => d.chain),
    faults,
    client: access.client,
    holdings: (address, chains) => Promise.all(chains.filter(access.has).map((ch) => access.call(ch, (c) => readHoldings(c, address)))),
    supplyIndex: (chain, protocol, asset, blockNumber) =>
      access.call(chain, (c) => {
        const market = c.deployment.markets.find((m) => m.protocol === protocol && m.asset === asset);
        if (market === undefined)
          throw new ServiceError('INVALID_CHAIN', `No ${protocol} ${asset} market on ${chain}`, { details: { chain, protocol, asset } });
        return readSupplyIndex(c, market, blockNumber);
      }),
    rates: async () => (await Promise.all(deployments.map((d) => access.call(d.chain, (c) => readRates(c))))).flat(),
    routeFees: () => fees.table(),
    dropRouteFees: () => fees.drop(),
    priceUsd: (asset, chain) => priceUsd(prices, asset, chain),
    send: (signer, tx, onSigned, onGasTopUp) => send(sending, signer, tx, onSigned, onGasTopUp),
    sendEvenIfReverting: (gasIfReverts, signer, tx, onSigned, onGasTopUp) => send(sending, signer, tx, onSigned, onGasTopUp, gasIfReverts),
    supplyPermit: (chain, protocol, asset) => supplyPermit(access, chain, protocol, asset),
    rebroadcast: (chain, raw) => rebroadcast(access, chain, raw),
    receipt: (chain, txHash, timeoutMs) => receipt(reads, chain, txHash, timeoutMs),
    findReceipt: (chain, hashes, waitMs) => findReceipt(reads, chain, hashes, waitMs),
    isKnown: (chain, txHash) => isKnown(reads, chain, txHash),
    replace: (signer, sent, onSigned) => replace({ access, accounts }, signer, sent, onSigned),
    messageReceived: (chain, message) => messageReceived(access, chain, message),
    attest: (chain, burnTxHash) => attest({ attestations, faults, access }, chain, burnTxHash),
    gasQuote: (chain) => {
      // a chain quoted at planning is about to be sent on: its fee estimate is read meanwhile
      feeEstimates.warm(chain);
      return gasQuote(reads, chain);
    },
    estimateGas: (from, tx, assume) => estimateGas(access, from, tx, assume),
    accountModel: (chain) => o.manifest.chains[chain]?.accountModel ?? 'plain',
    sendOperation: (wallet, chain, calls, onSigned) => sendOperation(operations, wallet, chain, calls, onSigned),
    sendOperationEvenIfReverting: (gasIfReverts, wallet, chain, calls, onSigned) => sendOperation(operations, wallet, chain, calls, onSigned, gasIfReverts),
    async close() {
      prices.clear();
      fees.drop();
      feeEstimates.clear();
    },
  };
}
