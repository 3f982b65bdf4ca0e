import { createDeliverySlots, type DeliverySlots } from '../../../src/app/webhooks/deliverySlots';
import type { ClaimSkip } from '../../../src/ports/store';

/**
 * The fair queue over accounts, driven as the worker drives it: a claim takes
 * the first delivery of the first skip set of claimOrder() that has one (here
 * a simulated store of due deliveries, oldest first), and a new turn starts
 * when none has.
 */

interface Due {
  accountId: string;
  endpointId: string;
  /** Set once claimed: gives its slot back (the attempt ended). */
  done?: () => void;
}

/** Claims like dispatcher.ts claimNext over `queue` (oldest first); the claimed delivery leaves the queue and takes a slot. */
function claim(slots: DeliverySlots, queue: Due[]): Due | null {
  const pick = (skip: ClaimSkip) => queue.findIndex((d) => !skip.accounts?.includes(d.accountId) && !skip.endpoints?.includes(d.endpointId));
  for (let turn = 0; turn < 2; turn++) {
    for (const skip of slots.claimOrder()) {
      const i = pick(skip);
      if (i >= 0) {
        const [d] = queue.splice(i, 1);
        d!.done = slots.take(d!);
        return d!;
      }
    }
    if (turn > 0 || !slots.turnStarted()) break;
    slots.nextTurn();
  }
  return null;
}

/** Claims until the slots are full or nothing is claimable; what was claimed, in order. */
function fill(slots: DeliverySlots, queue: Due[]): Due[] {
  const got: Due[] = [];
  while (slots.free()) {
    const d = claim(slots, queue);
    if (!d) break;
    got.push(d);
  }
  return got;
}

/** `accounts` accounts with `endpoints` endpoints each and `events` due deliveries per endpoint, queued account by account. */
function hanging(accounts: number, endpoints: number, events: number): Due[] {
  return Array.from({ length: accounts }, (_, a) =>
    Array.from({ length: endpoints }, (_, e) => Array.from({ length: events }, () => ({ accountId: `a${a}`, endpointId: `a${a}e${e}` }))).flat(),
  ).flat();
}

test('behavior: 5 accounts × 2 endpoints that never answer × 4 events hold 12 of 16 slots (4 per account at most): one more account starts at once, and three after it', () => {
  const slots = createDeliverySlots({ total: 16, perAccount: 4, perEndpoint: 2 });
  const queue = hanging(5, 2, 4);
  const held = fill(slots, queue);
  // before: first come, first served up to 16, so the next account waited for a timeout
  expect(held).toHaveLength(12);
  expect(slots.free()).toBe(true);
  // every hanging account got a slot before any got a second
  expect(held.slice(0, 5).map((d) => d.accountId)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
  queue.push(
    { accountId: 'b', endpointId: 'b0' },
    { accountId: 'c', endpointId: 'c0' },
    { accountId: 'd', endpointId: 'd0' },
    { accountId: 'e', endpointId: 'e0' },
  );
  expect(fill(slots, queue).map((d) => d.accountId)).toEqual(['b', 'c', 'd', 'e']);
  expect(slots.size).toBe(16);
});

test('behavior: with every slot held by other accounts, the first slot that frees goes to the account with nothing in flight, although the others’ deliveries are older', () => {
  const slots = createDeliverySlots({ total: 16, perAccount: 4, perEndpoint: 2 });
  const queue = hanging(16, 1, 4);
  const held = fill(slots, queue);
  expect(slots.size).toBe(16);
  queue.push({ accountId: 'b', endpointId: 'b0' });
  expect(fill(slots, queue)).toEqual([]);
  // one hanging attempt times out: its slot goes to b, not to a0's next delivery, due long before b's
  held[0]!.done!();
  expect(fill(slots, queue).map((d) => d.accountId)).toEqual(['b']);
  // the next one that frees goes back to the hanging accounts, in turn
  held[1]!.done!();
  expect(fill(slots, queue).map((d) => d.accountId)).toEqual(['a0']);
});

test('behavior: an account that holds slots takes no more of the last `reserve` free slots; one with nothing in flight does', () => {
  const slots = createDeliverySlots({ total: 8, perAccount: 8, perEndpoint: 8, reserve: 2 });
  const queue = hanging(1, 1, 10);
  expect(fill(slots, queue)).toHaveLength(6);
  expect(slots.claimOrder()).toEqual([{ accounts: ['a0'], endpoints: [] }]);
  queue.push({ accountId: 'b', endpointId: 'b0' }, { accountId: 'b', endpointId: 'b0' });
  // b takes one reserved slot; its second delivery waits like a0's
  expect(fill(slots, queue).map((d) => d.accountId)).toEqual(['b']);
  expect(slots.size).toBe(7);
});

test('behavior: alone, an account uses its whole share (perAccount), and fast deliveries of many accounts use every slot', () => {
  const alone = createDeliverySlots({ total: 16, perAccount: 4, perEndpoint: 4 });
  expect(fill(alone, hanging(1, 1, 10))).toHaveLength(4);
  const many = createDeliverySlots({ total: 16, perAccount: 4, perEndpoint: 2 });
  expect(fill(many, hanging(16, 1, 2))).toHaveLength(16);
});

test('behavior: a slot given back twice counts once', () => {
  const slots = createDeliverySlots({ total: 2, perAccount: 2, perEndpoint: 2 });
  const done = slots.take({ accountId: 'a', endpointId: 'e' });
  done();
  done();
  expect(slots.size).toBe(0);
  expect(slots.claimOrder()).toEqual([{ accounts: ['a'], endpoints: [] }]);
});
