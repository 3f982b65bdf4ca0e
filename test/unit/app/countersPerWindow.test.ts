import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { countRequest, peekRate, requestHistory } from '../../../src/app/accounts/rateLimit';
import { creditsUsed, reserveCreditUnits } from '../../../src/app/accounts/credits';
import type { Account } from '../../../src/domain/types';

/** A clock the test moves; the store expires counters by it too. */
function setup(startIso: string) {
  let now = Date.parse(startIso);
  const clock = { now: () => new Date(now) };
  const deps = { store: createMemoryStore(clock), clock };
  return { deps, advance: (ms: number) => void (now += ms) };
}

const account = (id: string, requestsPerMinute = 3): Account => ({ id, plan: 'free', createdAt: '2030-01-01T00:00:00.000Z', requestsPerMinute });

test("behavior: each account counts in its own window; a new minute starts every account's count over, and the last minute stays in the history", async () => {
  const { deps, advance } = setup('2030-05-01T10:00:10.000Z');
  const a = account('acct_a');
  const b = account('acct_b');
  const seen = [];
  for (let i = 0; i < 4; i++) seen.push(await countRequest(deps, a));
  expect(seen.map((s) => [s.remaining, s.exceeded])).toEqual([
    [2, false],
    [1, false],
    [0, false],
    [0, true],
  ]);
  expect(seen[0]!.reset).toBe(Date.parse('2030-05-01T10:01:00.000Z') / 1000);
  expect((await countRequest(deps, b)).remaining).toBe(2);
  advance(60_000);
  const next = await countRequest(deps, a);
  expect([next.remaining, next.exceeded, next.reset]).toEqual([2, false, Date.parse('2030-05-01T10:02:00.000Z') / 1000]);
  expect((await peekRate(deps, b)).remaining).toBe(3);
  expect((await requestHistory(deps, a, 2)).map((m) => m.requests)).toEqual([4, 1]);
  // a clock that goes back a minute counts in that minute's window again
  advance(-60_000);
  expect((await countRequest(deps, a)).exceeded).toBe(true);
});

test('behavior: credits count per account and calendar month; a refund gives back what was reserved; a new month starts at 0', async () => {
  const { deps, advance } = setup('2030-05-31T23:59:59.000Z');
  const a = account('acct_c');
  const b = account('acct_d');
  const r = await reserveCreditUnits(deps, a, 2);
  expect(r.usedAfter).toBe(2);
  expect((await reserveCreditUnits(deps, b, 1)).usedAfter).toBe(1);
  await r.refund(1);
  expect(r.usedAfter).toBe(1);
  expect(await creditsUsed(deps, a.id)).toBe(1);
  advance(1_000);
  expect(await creditsUsed(deps, a.id)).toBe(0);
  expect((await reserveCreditUnits(deps, a, 1)).usedAfter).toBe(1);
  expect(await creditsUsed(deps, a.id, '2030-05')).toBe(1);
});
