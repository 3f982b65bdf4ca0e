import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { toFunctionSelector, type Abi, type AbiEvent, type AbiFunction, type AbiParameter } from 'viem';
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from '../../src/chain/sandbox/abis';
import { fiatTokenArtifact, fiatTokenV2_2Abi } from '../../src/chain/sandbox/usdc/fiatToken';

/**
 * Circle ships CCTP v2's ABIs inside @circle-fin/adapter-viem-v2's bundle
 * without exporting them: read the array literals out of the bundle's text.
 */
function circleAbi(name: 'tokenMessengerV2Abi' | 'messageTransmitterV2Abi'): Abi {
  const bundle = readFileSync(require.resolve('@circle-fin/adapter-viem-v2'), 'utf8');
  const start = bundle.indexOf(`const ${name} = [`);
  if (start < 0) throw new Error(`${name} not found in the adapter bundle`);
  const open = bundle.indexOf('[', start);
  const close = bundle.indexOf('\n];', open);
  return runInNewContext(`(${bundle.slice(open, close + 2)})`) as Abi;
}

type Item = AbiFunction | AbiEvent;

/** Everything that makes two ABI entries call-compatible: kind, name, types, indexed flags, outputs, mutability (parameter names aside). */
function shape(item: Item): string {
  const params = (ps: readonly AbiParameter[]) => ps.map((p) => `${p.type}${(p as { indexed?: boolean }).indexed ? ' indexed' : ''}`).join(',');
  if (item.type === 'event') return `event ${item.name}(${params(item.inputs)})`;
  return `function ${item.name}(${params(item.inputs)}) ${item.stateMutability} returns (${params(item.outputs)})`;
}

function items(abi: Abi): Item[] {
  return abi.filter((x): x is Item => x.type === 'function' || x.type === 'event');
}

function find(abi: Abi, kind: 'function' | 'event', name: string): Item | undefined {
  return items(abi).find((x) => x.type === kind && x.name === name);
}

/** What the service and Circle's clients call or read on the contracts. */
const USED = {
  tokenMessengerV2Abi: {
    function: [
      'depositForBurn',
      'depositForBurnWithHook',
      'handleReceiveFinalizedMessage',
      'handleReceiveUnfinalizedMessage',
      'localMessageTransmitter',
      'localMinter',
      'messageBodyVersion',
      'remoteTokenMessengers',
      'addRemoteTokenMessenger',
      'feeRecipient',
      'setFeeRecipient',
      'owner',
    ],
    event: ['DepositForBurn', 'MintAndWithdraw', 'RemoteTokenMessengerAdded', 'FeeRecipientSet'],
  },
  messageTransmitterV2Abi: {
    function: [
      'receiveMessage',
      'sendMessage',
      'usedNonces',
      'localDomain',
      'version',
      'NONCE_USED',
      'enableAttester',
      'disableAttester',
      'isEnabledAttester',
      'getNumEnabledAttesters',
      'getEnabledAttester',
      'attesterManager',
      'updateAttesterManager',
      'signatureThreshold',
      'setSignatureThreshold',
      'maxMessageBodySize',
      'owner',
    ],
    event: ['MessageSent', 'MessageReceived', 'AttesterEnabled', 'AttesterDisabled', 'AttesterManagerUpdated', 'SignatureThresholdUpdated'],
  },
} as const;

/** Ours only: the token minter's settings, which Circle keeps in a separate TokenMinterV2. */
const SANDBOX_ONLY = new Set([
  'function linkTokenPair',
  'function getLocalToken',
  'function setMaxBurnAmountPerMessage',
  'function burnLimitsPerMessage',
  'event TokenPairLinked',
  'event SetBurnLimitPerMessage',
]);

const PAIRS = [
  { name: 'tokenMessengerV2Abi', ours: tokenMessengerV2Abi as Abi, circle: circleAbi('tokenMessengerV2Abi') },
  { name: 'messageTransmitterV2Abi', ours: messageTransmitterV2Abi as Abi, circle: circleAbi('messageTransmitterV2Abi') },
] as const;

describe('CCTP v2 ABI: our contracts against the ABIs Circle ships in @circle-fin/adapter-viem-v2', () => {
  test.each(PAIRS)('behavior: $name has every function and event the service uses, as Circle declares it', ({ name, ours, circle }) => {
    for (const kind of ['function', 'event'] as const) {
      for (const entry of USED[name][kind]) {
        const theirs = find(circle, kind, entry);
        expect(theirs).toBeDefined();
        expect({ entry, shape: shape(find(ours, kind, entry) ?? ({ type: kind, name: 'missing', inputs: [], outputs: [] } as unknown as Item)) }).toEqual({
          entry,
          shape: shape(theirs!),
        });
      }
    }
  });

  test.each(PAIRS)('behavior: every other entry of ours with a name Circle uses matches it; the rest are the known sandbox extras', ({ ours, circle }) => {
    for (const item of items(ours)) {
      const theirs = find(circle, item.type, item.name);
      if (theirs) expect(shape(item)).toBe(shape(theirs));
      else expect(SANDBOX_ONLY).toContain(`${item.type} ${item.name}`);
    }
  });

  test('behavior: depositForBurn is v2’s seven-argument form (selector 0x8e0250ee), not v1’s 0x6fd3504e', () => {
    const deposit = find(tokenMessengerV2Abi as Abi, 'function', 'depositForBurn') as AbiFunction;
    expect(toFunctionSelector(deposit)).toBe('0x8e0250ee');
  });
});

describe('USDC ABI: the FiatTokenV2_2 entries the sandbox calls', () => {
  test('behavior: each is in the package’s FiatTokenV2_2 ABI with the same shape', () => {
    const pkg = fiatTokenArtifact('FiatTokenV2_2').abi;
    for (const item of items(fiatTokenV2_2Abi as Abi)) {
      const same = items(pkg)
        .filter((x) => x.type === item.type && x.name === item.name)
        .map(shape);
      expect(same).toContain(shape(item));
    }
  });
});
