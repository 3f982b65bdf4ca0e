import { takeNonce } from '../../../src/chain/viem/sharedNonces';
import { createMemoryNonces } from '../../../src/store/memory/memoryNonces';

/** takeNonce against the memory allocator and a scripted chain: its pending nonce answers from `script`, the last value repeating. */
function chain(script: number[]) {
  let reads = 0;
  return {
    readPending: async () => script[Math.min(reads++, script.length - 1)]!,
    get reads() {
      return reads;
    },
  };
}

const KEY = '84532:0xtank';

test('behavior: a nonce the chain is at is handed over at once', async () => {
  const repo = createMemoryNonces();
  const c = chain([5]);
  const held = await takeNonce({ repo, key: KEY, pending: 5, readPending: c.readPending, gapMs: 1_000, pollMs: 1 });
  expect(held?.nonce).toBe(5);
  expect(c.reads).toBe(0);
});

test('behavior: a nonce above the chain waits until the nonces below it arrive', async () => {
  const repo = createMemoryNonces();
  await repo.take(KEY, 5, Date.now(), 1_000); // another instance holds 5, about to send it
  const c = chain([5, 5, 6]);
  const held = await takeNonce({ repo, key: KEY, pending: 5, readPending: c.readPending, gapMs: 1_000, pollMs: 1 });
  expect(held?.nonce).toBe(6);
  expect(c.reads).toBe(3);
});

test('behavior: a chain that went past the nonce while waiting (an outside sender) answers null', async () => {
  const repo = createMemoryNonces();
  await repo.take(KEY, 5, Date.now(), 1_000);
  const held = await takeNonce({ repo, key: KEY, pending: 5, readPending: chain([8]).readPending, gapMs: 1_000, pollMs: 1 });
  expect(held).toBeNull();
});

test('behavior: a gap that stays gapMs is filled: the nonce is taken again at the chain', async () => {
  const repo = createMemoryNonces();
  await repo.take(KEY, 5, Date.now(), 50); // taken, never sent
  const held = await takeNonce({ repo, key: KEY, pending: 5, readPending: chain([5]).readPending, gapMs: 50, pollMs: 5 });
  expect(held?.nonce).toBe(5);
  // the counter follows: the next take is 6
  expect(await repo.take(KEY, 6, Date.now(), 50)).toBe(6);
});

test('behavior: a gap that began before this take (a dead instance took a nonce a while ago) is filled once gapMs has passed since the chain stopped, not gapMs after this take', async () => {
  const repo = createMemoryNonces();
  const gapMs = 1_000;
  await repo.take(KEY, 5, Date.now() - gapMs + 100, gapMs); // taken 900 ms ago by an instance that died
  const started = Date.now();
  const held = await takeNonce({ repo, key: KEY, pending: 5, readPending: chain([5]).readPending, gapMs, pollMs: 5 });
  expect(held?.nonce).toBe(5);
  expect(Date.now() - started).toBeLessThan(gapMs / 2);
});

test('behavior: a node failing while the nonce waits gives it back and fails', async () => {
  const repo = createMemoryNonces();
  await repo.take(KEY, 5, Date.now(), 1_000);
  const failing = async (): Promise<number> => {
    throw new Error('node down');
  };
  await expect(takeNonce({ repo, key: KEY, pending: 5, readPending: failing, gapMs: 1_000, pollMs: 1 })).rejects.toThrow('node down');
  // 6 came back: the next take gets it again
  expect(await repo.take(KEY, 5, Date.now(), 1_000)).toBe(6);
});

test('behavior: release gives a never-broadcast nonce back', async () => {
  const repo = createMemoryNonces();
  const held = await takeNonce({ repo, key: KEY, pending: 3, readPending: chain([3]).readPending, gapMs: 1_000, pollMs: 1 });
  await held!.release();
  expect(await repo.take(KEY, 3, Date.now(), 1_000)).toBe(3);
});
