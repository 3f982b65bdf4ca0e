import { randomBytes } from 'node:crypto';
import { createPublicClient, http, keccak256, pad, parseEventLogs, toHex, zeroHash, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createAttestationClient, type AttestationClient } from '../../src/chain/cctp/attestationClient';
import { cctpFee } from '../../src/domain/cctpFee';
import { FINALITY_FAST, FINALITY_STANDARD, decodeBurnMessageV2, decodeMessageV2 } from '../../src/chain/cctp/messageV2';
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from '../../src/chain/sandbox/abis';
import { SANDBOX_KEYS } from '../../src/chain/sandbox/accounts';
import { deployCctpV2, linkCctpV2Routes, type CctpV2Deployment } from '../../src/chain/sandbox/cctp/deployCctpV2';
import { CIRCLE_USDC } from '../../src/chain/sandbox/deploy';
import { createDeployer, type Deployer } from '../../src/chain/sandbox/deployer';
import { startDevnets, type Devnets } from '../../src/chain/sandbox/devnets';
import { REATTESTED_MIN_BLOCKS, startIrisServer, type IrisServer } from '../../src/chain/sandbox/iris/irisServer';
import {
  FIAT_TOKEN_PROXY_ADMIN_SLOT,
  FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT,
  fiatTokenArtifact,
  fiatTokenProxyAbi,
  fiatTokenV2_2Abi,
  maskLinks,
} from '../../src/chain/sandbox/usdc/fiatToken';
import { deployUsdc, type DeployUsdcReturnType } from '../../src/chain/sandbox/usdc/deployUsdc';
import { viemChainFor } from '../../src/chain/sandbox/viemChains';
import { CHAINS, type ChainName } from '../../src/domain/chains';
import { SimulatedClock, type TimerId } from '../../src/domain/clock';
import { isTransient } from '../../src/engine/retry';

const SOURCE: ChainName = 'ethereum-sepolia';
const DEST: ChainName = 'base-sepolia';
const CHAIN_NAMES = [SOURCE, DEST] as const;
const DELAYS = { fast: 40, standard: 400 };
const FAST_FEE_BPS = 1.3;
const PROXY_ADMIN = privateKeyToAccount(generatePrivateKey()).address;
const FEE_RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const FAUCET_ALLOWANCE = 10n ** 15n;

/** A simulated clock on which time passes at once whenever something waits: the Iris delays elapse only as the client polls. */
class InstantClock extends SimulatedClock {
  override setTimeout(fn: () => void, ms: number): TimerId {
    const id = super.setTimeout(fn, ms);
    setImmediate(() => this.advance(ms));
    return id;
  }
}

interface ChainEnv {
  name: ChainName;
  deployer: Deployer;
  /** The sender of burns (funded with USDC by the faucet). */
  user: Deployer;
  usdc: DeployUsdcReturnType;
  cctp: CctpV2Deployment;
  /** No retries: a revert must surface at once. */
  reader: ReturnType<typeof createPublicClient>;
}

let devnets: Devnets;
let iris: IrisServer;
let client: AttestationClient;
const clock = new InstantClock(Date.UTC(2026, 0, 1));
const env = {} as Record<ChainName, ChainEnv>;

beforeAll(async () => {
  devnets = await startDevnets({ chains: CHAIN_NAMES });
  await Promise.all(
    CHAIN_NAMES.map(async (name) => {
      const { rpcUrl } = devnets.chains[name]!;
      const deployer = createDeployer(name, rpcUrl, SANDBOX_KEYS.deployer);
      const faucet = createDeployer(name, rpcUrl, SANDBOX_KEYS.faucet);
      const usdc = await deployUsdc(deployer, {
        proxyAdmin: PROXY_ADMIN,
        at: CIRCLE_USDC[name],
        minters: [{ address: faucet.account, allowance: FAUCET_ALLOWANCE }],
      });
      const cctp = await deployCctpV2(deployer, {
        domain: CHAINS[name].cctpDomain,
        usdc: usdc.address,
        attesterManager: deployer.account,
        feeRecipient: FEE_RECIPIENT,
      });
      console.log(`${name}: USDC ${usdc.transactions} tx in ${usdc.ms} ms; CCTP v2 ${cctp.transactions} tx in ${cctp.ms} ms`);
      const user = createDeployer(name, rpcUrl, SANDBOX_KEYS.treasury);
      await faucet.confirm(
        faucet.wallet.writeContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'mint', args: [user.account, 1_000_000_000n] }),
      );
      const reader = createPublicClient({ chain: viemChainFor(name, rpcUrl), transport: http(rpcUrl, { retryCount: 0 }) });
      env[name] = { name, deployer, user, usdc, cctp, reader };
    }),
  );
  const deployments = CHAIN_NAMES.map((n) => env[n].cctp);
  await Promise.all(CHAIN_NAMES.map((n) => linkCctpV2Routes(env[n].deployer, env[n].cctp, deployments)));
  iris = await startIrisServer({
    chains: CHAIN_NAMES.map((n) => ({
      chain: n,
      domain: env[n].cctp.domain,
      rpcUrl: devnets.chains[n]!.rpcUrl,
      messageTransmitter: env[n].cctp.messageTransmitter,
    })),
    attesterKey: SANDBOX_KEYS.attester,
    attesterManagerKey: SANDBOX_KEYS.deployer,
    delaysMs: DELAYS,
    feesBps: { fast: FAST_FEE_BPS, standard: 0 },
    clock,
  });
  client = createAttestationClient({ baseUrl: iris.url, clock, poll: { initialMs: 10, maxMs: 80 }, timeoutMs: 5_000 });
}, 180_000);

afterAll(async () => {
  await iris?.close();
  await devnets?.stop();
});

function randomAddress(): Address {
  return toHex(randomBytes(20));
}

async function usdcBalance(chain: ChainName, holder: Address): Promise<bigint> {
  return env[chain].reader.readContract({ address: env[chain].usdc.address, abi: fiatTokenV2_2Abi, functionName: 'balanceOf', args: [holder] });
}

/** Approves and burns `amount` of the user's USDC on `from` for `recipient` on `to`; returns the tx hash and the MessageSent bytes. */
async function burn(
  from: ChainName,
  to: ChainName,
  amount: bigint,
  recipient: Address,
  opts: { maxFee: bigint; minFinalityThreshold: number; hookData?: Hex },
): Promise<{ txHash: Hex; sent: Hex }> {
  const { user, usdc, cctp } = env[from];
  await user.confirm(user.wallet.writeContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'approve', args: [cctp.tokenMessenger, amount] }));
  const common = [amount, CHAINS[to].cctpDomain, pad(recipient), usdc.address, zeroHash, opts.maxFee, opts.minFinalityThreshold] as const;
  const receipt = await user.confirm(
    opts.hookData
      ? user.wallet.writeContract({
          address: cctp.tokenMessenger,
          abi: tokenMessengerV2Abi,
          functionName: 'depositForBurnWithHook',
          args: [...common, opts.hookData],
        })
      : user.wallet.writeContract({ address: cctp.tokenMessenger, abi: tokenMessengerV2Abi, functionName: 'depositForBurn', args: common }),
  );
  const [sent] = parseEventLogs({ abi: messageTransmitterV2Abi, logs: receipt.logs, eventName: 'MessageSent' });
  return { txHash: receipt.transactionHash, sent: sent!.args.message };
}

function receive(chain: ChainName, message: Hex, attestation: Hex) {
  const { user, cctp } = env[chain];
  return user.confirm(
    user.wallet.writeContract({ address: cctp.messageTransmitter, abi: messageTransmitterV2Abi, functionName: 'receiveMessage', args: [message, attestation] }),
  );
}

/** receiveMessage as an eth_call: rejects with the revert reason. */
function simulateReceive(chain: ChainName, message: Hex, attestation: Hex) {
  const { reader, user, cctp } = env[chain];
  return reader.simulateContract({
    account: user.account,
    address: cctp.messageTransmitter,
    abi: messageTransmitterV2Abi,
    functionName: 'receiveMessage',
    args: [message, attestation],
  });
}

async function irisGet(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${iris.url}${path}`);
  return { status: res.status, body: await res.json() };
}

describe('USDC: Circle’s FiatTokenV2_2 behind FiatTokenProxy', () => {
  test('behavior: sits at Circle’s address, initialized as Circle does (USDC, USD, 6 decimals, EIP-712 version "2")', async () => {
    for (const name of CHAIN_NAMES) {
      const { reader, usdc, deployer } = env[name];
      expect(usdc.address).toBe(CIRCLE_USDC[name]);
      const read = <F extends 'name' | 'symbol' | 'currency' | 'version' | 'decimals' | 'owner' | 'masterMinter'>(functionName: F) =>
        reader.readContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName });
      expect([await read('name'), await read('symbol'), await read('currency'), await read('version'), await read('decimals')]).toEqual([
        'USDC',
        'USDC',
        'USD',
        '2',
        6,
      ]);
      expect(await read('owner')).toBe(deployer.account);
      expect(await read('masterMinter')).toBe(deployer.account);
      // The proxy answers admin() and implementation() to its admin only; an eth_call from the admin needs no key.
      expect(await reader.readContract({ account: PROXY_ADMIN, address: usdc.address, abi: fiatTokenProxyAbi, functionName: 'admin' })).toBe(PROXY_ADMIN);
      expect(await reader.readContract({ account: PROXY_ADMIN, address: usdc.address, abi: fiatTokenProxyAbi, functionName: 'implementation' })).toBe(
        usdc.implementation,
      );
      expect(
        await reader.readContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'minterAllowance', args: [env[name].cctp.tokenMessenger] }),
      ).toBe(10n ** 15n);
    }
  });

  test('behavior: the runtime code is the package’s (FiatTokenV2_2 with link references masked, FiatTokenProxy as is)', async () => {
    const token = fiatTokenArtifact('FiatTokenV2_2');
    const { reader, usdc } = env[SOURCE];
    const implementationCode = (await reader.getCode({ address: usdc.implementation }))!;
    expect(maskLinks(implementationCode, token.deployedLinkReferences)).toBe(maskLinks(token.deployedBytecode, token.deployedLinkReferences));
    // The linked library is the one deployed alongside.
    expect(implementationCode).toContain(usdc.signatureChecker.slice(2).toLowerCase());
    expect(await reader.getCode({ address: usdc.address })).toBe(fiatTokenArtifact('FiatTokenProxy').deployedBytecode);
  });

  test('behavior: a deployed FiatTokenProxy keeps admin and implementation in the slots the placement writes', async () => {
    const { deployer, reader, usdc } = env[DEST];
    const proxy = fiatTokenArtifact('FiatTokenProxy');
    const address = await deployer.deploy({ abi: proxy.abi, bytecode: proxy.bytecode, args: [usdc.implementation] });
    expect(await reader.getStorageAt({ address, slot: FIAT_TOKEN_PROXY_ADMIN_SLOT })).toBe(pad(deployer.account.toLowerCase() as Hex));
    expect(await reader.getStorageAt({ address, slot: FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT })).toBe(pad(usdc.implementation.toLowerCase() as Hex));
  });

  test('behavior: transferWithAuthorization (EIP-3009, x402’s payment) with domain name "USDC" version "2"', async () => {
    const { user, reader, usdc } = env[DEST];
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = randomAddress();
    await user.confirm(
      user.wallet.writeContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'transfer', args: [payer.address, 5_000_000n] }),
    );
    const nonce = toHex(randomBytes(32));
    const message = { from: payer.address, to: payee, value: 1_250_000n, validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600), nonce };
    const signature = await payer.signTypedData({
      domain: { name: 'USDC', version: '2', chainId: CHAINS[DEST].chainId, verifyingContract: usdc.address },
      types: {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      message,
    });
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, nonce, signature] as const;
    // A settler (not the payer) submits it, as an x402 facilitator does.
    await user.confirm(user.wallet.writeContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'transferWithAuthorization', args }));
    expect(await usdcBalance(DEST, payee)).toBe(1_250_000n);
    expect(await reader.readContract({ address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'authorizationState', args: [payer.address, nonce] })).toBe(
      true,
    );
    await expect(
      reader.simulateContract({ account: user.account, address: usdc.address, abi: fiatTokenV2_2Abi, functionName: 'transferWithAuthorization', args }),
    ).rejects.toThrow('FiatTokenV2: authorization is used or canceled');
  });
});

describe('CCTP v2 with the Iris-compatible attestation service', () => {
  test('behavior: a fast burn mints amount − fee with the service’s message; the event’s message and a second receive are refused', async () => {
    const amount = 25_000_000n;
    const tiers = await client.fetchFees(CHAINS[SOURCE].cctpDomain, CHAINS[DEST].cctpDomain);
    const fastBps = tiers.find((t) => t.finalityThreshold === FINALITY_FAST)!.minimumFeeBps;
    const fee = cctpFee(amount, fastBps);
    expect(fee).toBe(3_250n); // 1.3 bps of 25 USDC
    const recipient = randomAddress();
    const userBefore = await usdcBalance(SOURCE, env[SOURCE].user.account);
    const { txHash, sent } = await burn(SOURCE, DEST, amount, recipient, { maxFee: fee, minFinalityThreshold: FINALITY_FAST });
    expect(await usdcBalance(SOURCE, env[SOURCE].user.account)).toBe(userBefore - amount);
    // The log's message carries an empty nonce and no executed finality: the service fills them.
    expect(decodeMessageV2(sent)).toMatchObject({
      version: 1,
      sourceDomain: 0,
      destinationDomain: 6,
      nonce: zeroHash,
      finalityThresholdExecuted: 0,
      minFinalityThreshold: 1000,
    });

    const attested = await client.fetchAttestation({ sourceDomain: CHAINS[SOURCE].cctpDomain, txHash });
    expect(attested.nonce).not.toBe(zeroHash);
    expect(decodeMessageV2(attested.message)).toMatchObject({ nonce: attested.nonce, finalityThresholdExecuted: FINALITY_FAST });
    expect(decodeBurnMessageV2(decodeMessageV2(attested.message).messageBody)).toMatchObject({ amount, maxFee: fee, feeExecuted: fee });
    expect(attested.feeExecuted).toBe(fee);

    await expect(simulateReceive(DEST, sent, attested.attestation)).rejects.toThrow('Invalid signature: not attester');
    const feesBefore = await usdcBalance(DEST, FEE_RECIPIENT);
    await receive(DEST, attested.message, attested.attestation);
    expect(await usdcBalance(DEST, recipient)).toBe(amount - fee);
    expect(await usdcBalance(DEST, FEE_RECIPIENT)).toBe(feesBefore + fee);
    const { reader, cctp } = env[DEST];
    expect(
      await reader.readContract({ address: cctp.messageTransmitter, abi: messageTransmitterV2Abi, functionName: 'usedNonces', args: [attested.nonce] }),
    ).toBe(1n);
    await expect(simulateReceive(DEST, attested.message, attested.attestation)).rejects.toThrow('Nonce already used');
  });

  test('behavior: a standard burn (with hook data) stays pending past the fast delay, then mints in full', async () => {
    const amount = 7_000_000n;
    const recipient = randomAddress();
    const hookData: Hex = '0xcafe';
    const domain = CHAINS[DEST].cctpDomain;
    const standard = await burn(DEST, SOURCE, amount, recipient, { maxFee: 0n, minFinalityThreshold: FINALITY_STANDARD, hookData });
    const fast = await burn(DEST, SOURCE, 2_000_000n, randomAddress(), { maxFee: 1_000n, minFinalityThreshold: FINALITY_FAST });
    const path = (h: Hex) => `/v2/messages/${domain}?transactionHash=${h}`;
    // Both seen at the same instant; the clock moves only when told to here.
    const first = await irisGet(path(standard.txHash));
    await irisGet(path(fast.txHash));
    expect(first).toMatchObject({ status: 200, body: { messages: [{ status: 'pending_confirmations', attestation: 'PENDING', cctpVersion: 2 }] } });
    clock.advance(DELAYS.fast);
    expect((await irisGet(path(fast.txHash))).body).toMatchObject({ messages: [{ status: 'complete' }] });
    expect((await irisGet(path(standard.txHash))).body).toMatchObject({ messages: [{ status: 'pending_confirmations' }] });

    const attested = await client.fetchAttestation({ sourceDomain: domain, txHash: standard.txHash });
    expect(attested).toMatchObject({ finalityThresholdExecuted: FINALITY_STANDARD, feeExecuted: 0n });
    const complete = (await irisGet(path(standard.txHash))).body as { messages: { decodedMessage: unknown }[] };
    expect(complete.messages[0]!.decodedMessage).toMatchObject({
      sourceDomain: '6',
      destinationDomain: '0',
      sender: env[DEST].cctp.tokenMessenger.toLowerCase(),
      minFinalityThreshold: '2000',
      finalityThresholdExecuted: '2000',
      decodedMessageBody: {
        burnToken: env[DEST].usdc.address.toLowerCase(),
        mintRecipient: recipient.toLowerCase(),
        amount: '7000000',
        messageSender: env[DEST].user.account.toLowerCase(),
        maxFee: '0',
        feeExecuted: '0',
        expirationBlock: '0',
        hookData,
      },
    });
    await receive(SOURCE, attested.message, attested.attestation);
    expect(await usdcBalance(SOURCE, recipient)).toBe(amount);
  });

  test('behavior: a fast burn whose maxFee is below the fast fee is attested at standard finality (insufficient_fee)', async () => {
    const { txHash } = await burn(SOURCE, DEST, 50_000_000n, randomAddress(), { maxFee: 1n, minFinalityThreshold: FINALITY_FAST });
    const attested = await client.fetchAttestation({ sourceDomain: CHAINS[SOURCE].cctpDomain, txHash });
    expect(attested).toMatchObject({ finalityThresholdExecuted: FINALITY_STANDARD, feeExecuted: 0n });
    const { body } = await irisGet(`/v2/messages/${CHAINS[SOURCE].cctpDomain}?transactionHash=${txHash}`);
    expect(body).toMatchObject({ messages: [{ status: 'complete', delayReason: 'insufficient_fee' }] });
  });

  test('behavior: an attestation whose expirationBlock has passed reverts "Message expired and must be re-signed"; POST /v2/reattest/{nonce} signs it again with a later block, and it mints once', async () => {
    const amount = 4_000_000n;
    const recipient = randomAddress();
    const { txHash } = await burn(SOURCE, DEST, amount, recipient, { maxFee: 0n, minFinalityThreshold: FINALITY_STANDARD });
    const ref = { sourceDomain: CHAINS[SOURCE].cctpDomain, txHash };
    // one block of validity: expired for any block after the one it was signed at
    iris.setExpirationBlocks(1);
    let expired;
    try {
      expired = await client.fetchAttestation(ref);
    } finally {
      iris.setExpirationBlocks(0);
    }
    const signedAt = await env[DEST].reader.getBlockNumber({ cacheTime: 0 });
    expect(expired).toMatchObject({ destinationDomain: CHAINS[DEST].cctpDomain, expirationBlock: signedAt + 1n });
    // the destination moves on a block: the mint's block number reaches the expiration
    await env[DEST].reader.request({ method: 'evm_mine' as never, params: [] as never });
    await expect(simulateReceive(DEST, expired.message, expired.attestation)).rejects.toThrow('Message expired and must be re-signed');

    iris.setExpirationBlocks(1);
    try {
      await client.reattest({ ...ref, nonce: expired.nonce });
    } finally {
      iris.setExpirationBlocks(0);
    }
    const fresh = await client.fetchAttestation({ ...ref, replacing: expired.attestation });
    expect(fresh.nonce).toBe(expired.nonce);
    expect(fresh.expirationBlock).toBe(signedAt + 1n + BigInt(REATTESTED_MIN_BLOCKS));
    await receive(DEST, fresh.message, fresh.attestation);
    expect(await usdcBalance(DEST, recipient)).toBe(amount);
    await expect(simulateReceive(DEST, fresh.message, fresh.attestation)).rejects.toThrow('Nonce already used');
    const unknown = await client.reattest({ ...ref, nonce: toHex(randomBytes(32)) }).catch((x: unknown) => x);
    expect(unknown).toMatchObject({ code: 'BRIDGE_FAILED' });
  });

  test('error: an attestation by a key that is not an enabled attester reverts', async () => {
    const { txHash } = await burn(SOURCE, DEST, 3_000_000n, randomAddress(), { maxFee: 0n, minFinalityThreshold: FINALITY_STANDARD });
    const attested = await client.fetchAttestation({ sourceDomain: CHAINS[SOURCE].cctpDomain, txHash });
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await stranger.sign({ hash: keccak256(attested.message) });
    await expect(simulateReceive(DEST, attested.message, forged)).rejects.toThrow('Invalid signature: not attester');
    const { reader, cctp } = env[DEST];
    const read = <F extends 'attesterManager' | 'signatureThreshold' | 'getNumEnabledAttesters'>(functionName: F) =>
      reader.readContract({ address: cctp.messageTransmitter, abi: messageTransmitterV2Abi, functionName });
    expect([await read('attesterManager'), await read('signatureThreshold'), await read('getNumEnabledAttesters')]).toEqual([
      env[DEST].deployer.account,
      1n,
      1n,
    ]);
    expect(
      await reader.readContract({ address: cctp.messageTransmitter, abi: messageTransmitterV2Abi, functionName: 'isEnabledAttester', args: [iris.attester] }),
    ).toBe(true);
  });

  test('behavior: the fee route answers Circle’s shape and follows a fee set at run time', async () => {
    const route = `/v2/burn/USDC/fees/${CHAINS[SOURCE].cctpDomain}/${CHAINS[DEST].cctpDomain}`;
    expect(await irisGet(route)).toEqual({
      status: 200,
      body: [
        { finalityThreshold: 1000, minimumFee: FAST_FEE_BPS },
        { finalityThreshold: 2000, minimumFee: 0 },
      ],
    });
    iris.setFees({ fast: 2 });
    try {
      expect(await client.fetchFees(CHAINS[SOURCE].cctpDomain, CHAINS[DEST].cctpDomain)).toEqual([
        { finalityThreshold: 1000, minimumFeeBps: 2 },
        { finalityThreshold: 2000, minimumFeeBps: 0 },
      ]);
    } finally {
      iris.setFees({ fast: FAST_FEE_BPS });
    }
    expect((await irisGet(`/v2/burn/USDC/fees/0/0`)).status).toBe(400);
  });

  test('error: an unknown transaction is 404 "Message hash not found"; the client gives up with a transient TIMEOUT', async () => {
    const unknown = toHex(randomBytes(32));
    expect(await irisGet(`/v2/messages/0?transactionHash=${unknown}`)).toEqual({ status: 404, body: { error: 'Message hash not found' } });
    const e = await client.fetchAttestation({ sourceDomain: 0, txHash: unknown }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'TIMEOUT', details: { service: 'attestation', lastStatus: 'not_found' } });
    expect(isTransient(e)).toBe(true);
  });

  test('error: during an outage every route answers 503 and the client throws a transient NETWORK_ERROR', async () => {
    iris.setOutage(true);
    try {
      expect((await irisGet('/v2/burn/USDC/fees/0/6')).status).toBe(503);
      const e = await client.fetchAttestation({ sourceDomain: 0, txHash: toHex(randomBytes(32)) }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'NETWORK_ERROR', details: { service: 'attestation' } });
      expect(isTransient(e)).toBe(true);
      await expect(client.fetchFees(0, 6)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    } finally {
      iris.setOutage(false);
    }
  });

  test('error: an aborted wait rejects with the abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('engine stopping');
    const waiting = client.fetchAttestation({ sourceDomain: 0, txHash: toHex(randomBytes(32)), signal: controller.signal });
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  test('error: a burn to a domain without a registered messenger reverts', async () => {
    const { user, usdc, cctp, reader } = env[SOURCE];
    await expect(
      reader.simulateContract({
        account: user.account,
        address: cctp.tokenMessenger,
        abi: tokenMessengerV2Abi,
        functionName: 'depositForBurn',
        args: [1_000_000n, CHAINS['arbitrum-sepolia'].cctpDomain, pad(user.account), usdc.address, zeroHash, 0n, FINALITY_STANDARD],
      }),
    ).rejects.toThrow('No TokenMessenger for domain');
  });

  // Last: it leaves the source devnet down.
  test('error: with the source devnet down the service answers 503 and the client a transient NETWORK_ERROR', async () => {
    await devnets.kill(SOURCE);
    const path = `/v2/messages/${CHAINS[SOURCE].cctpDomain}?transactionHash=${toHex(randomBytes(32))}`;
    expect(await irisGet(path)).toMatchObject({ status: 503, body: { error: expect.stringContaining('Source chain unreachable') } });
    const quick = createAttestationClient({ baseUrl: iris.url, clock, poll: { initialMs: 10, maxMs: 20 }, timeoutMs: 30 });
    const e = await quick.fetchAttestation({ sourceDomain: CHAINS[SOURCE].cctpDomain, txHash: toHex(randomBytes(32)) }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'NETWORK_ERROR' });
    expect(isTransient(e)).toBe(true);
  });
});
