import { INTENT_REQUEST_FIELDS } from '../../../src/domain/commands';
import { createIntentSchema } from '../../../src/domain/schemas/intent';
import { askedOf } from '../../../src/app/intents/createIntent';
import { parseCreateIntent } from '../../../src/domain/schemas/intent';
import { planningRequestOf } from '../../../src/engine/planning';

/** One field list per request shape: the schema's fields and the list that what is recorded and planned derive from stay the same. */

test('behavior: the field list of a create-intent request names every field of its schema beyond walletId, action, amount and asset', () => {
  const listed = [...INTENT_REQUEST_FIELDS.route, ...INTENT_REQUEST_FIELDS.mode].sort();
  const schema = Object.keys(createIntentSchema.shape)
    .filter((f) => !['walletId', 'action', 'amount', 'asset'].includes(f))
    .sort();
  expect(listed).toEqual(schema);
});

test('behavior: every listed field a request carries reaches the intent it records and the request planning reads', () => {
  const command = parseCreateIntent({
    walletId: 'svc_wallet_x',
    action: 'rebalance',
    amount: '3',
    toChain: 'base-sepolia',
    toProtocol: 'aave-v3',
    sources: [{ chain: 'arbitrum-sepolia', protocol: null, amount: '3' }],
    speed: 'standard',
  });
  const asked = askedOf(command);
  for (const field of [...INTENT_REQUEST_FIELDS.route, ...INTENT_REQUEST_FIELDS.mode]) {
    if (command[field] !== undefined) expect(asked).toHaveProperty(field);
  }
  const planned = planningRequestOf({ walletId: command.walletId, ...asked });
  expect(planned).toMatchObject({
    toChain: 'base-sepolia',
    toProtocol: 'aave-v3',
    speed: 'standard',
    sources: [{ chain: 'arbitrum-sepolia', protocol: null, amount: 3_000_000n }],
  });
});
