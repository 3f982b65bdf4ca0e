import type { ExecutionResult } from 'graphql';
import { observeStream, type StreamObserver } from '../../../src/graphql/streamMetrics';

/** An async generator of `n` results that records whether it was finished early. */
function source(n: number, fail = false) {
  const state = { returned: false };
  async function* gen(): AsyncGenerator<ExecutionResult> {
    try {
      for (let i = 0; i < n; i++) yield { data: { i } };
      if (fail) throw new Error('source failed');
    } finally {
      state.returned = true;
    }
  }
  return { it: gen(), state };
}

function observer() {
  const counts = { open: 0, opened: 0, closed: 0 };
  const o: StreamObserver = {
    opened: () => (counts.open++, counts.opened++),
    closed: () => (counts.open--, counts.closed++),
  };
  return { o, counts };
}

test('behavior: a stream read to its end is counted open until then, and closed once', async () => {
  const { o, counts } = observer();
  const s = observeStream(source(2).it, 'websocket', o);
  expect(counts).toEqual({ open: 1, opened: 1, closed: 0 });
  const seen = [];
  for await (const r of s) seen.push(r.data);
  expect(seen).toEqual([{ i: 0 }, { i: 1 }]);
  expect(counts).toEqual({ open: 0, opened: 1, closed: 1 });
  await s.return!();
  expect(counts.closed).toBe(1);
});

test('behavior: return() (a client going away) closes it once and finishes the source', async () => {
  const { o, counts } = observer();
  const src = source(5);
  const s = observeStream(src.it, 'sse', o);
  await s.next();
  await s.return!();
  await s.return!();
  expect(src.state.returned).toBe(true);
  expect(counts).toEqual({ open: 0, opened: 1, closed: 1 });
});

test('error: a source that fails closes the stream and passes the error on', async () => {
  const { o, counts } = observer();
  const s = observeStream(source(1, true).it, 'websocket', o);
  await s.next();
  await expect(s.next()).rejects.toThrow('source failed');
  expect(counts).toEqual({ open: 0, opened: 1, closed: 1 });
});
