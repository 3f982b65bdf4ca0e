import { MAX_BACKWARD_SCAN, paginate, type Connection, type ForwardPage, type ReadForward } from '../../../src/graphql/types/connection';
import { isServiceError } from '../../../src/domain/errors/base';

/**
 * Relay paging over a forward-only, newest-first listing (connection.ts),
 * against an in-memory list that reads like the use-cases: `first` items
 * strictly after the `after` cursor.
 */
const cursorOf = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');

/** n items, newest first: item 0 is the newest. Every read is counted. */
function list(n: number) {
  const items = Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1) + (n - i) * 1000).toISOString();
    return { at, id: `item_${String(n - i).padStart(5, '0')}` };
  });
  let reads = 0;
  const read: ReadForward<string> = async ({ first = 20, after }) => {
    reads++;
    let start = 0;
    if (after !== undefined) {
      const [at, id] = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as [string, string];
      // strictly older than the cursor (it may have been deleted): the first item not newer
      start = items.findIndex((x) => x.at < at || (x.at === at && x.id < id));
      if (start < 0) start = items.length;
    }
    const slice = items.slice(start, start + first + 1);
    const page: ForwardPage<string> = {
      edges: slice.slice(0, first).map((x) => ({ cursor: cursorOf(x.at, x.id), node: x.id })),
      pageInfo: { hasNextPage: slice.length > first, endCursor: null },
    };
    return page;
  };
  return { items, read, reads: () => reads, cursor: (i: number) => cursorOf(items[i]!.at, items[i]!.id) };
}

const ids = (c: { edges: { node: string }[] }) => c.edges.map((e) => e.node);

async function codeOf(p: Promise<unknown>): Promise<{ code: string; paths: string[] }> {
  try {
    await p;
  } catch (e) {
    if (isServiceError(e)) return { code: e.code, paths: ((e.details.issues ?? []) as { path: string }[]).map((i) => i.path) };
    throw e;
  }
  throw new Error('expected a refusal');
}

test('behavior: first/after pages forward with a full PageInfo; hasPreviousPage is exact (one read of the newest item)', async () => {
  const l = list(7);
  const p1 = await paginate({ first: 3 }, l.read);
  expect(ids(p1)).toEqual(l.items.slice(0, 3).map((x) => x.id));
  expect(p1.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: l.cursor(0), endCursor: l.cursor(2) });
  const p2 = await paginate({ first: 3, after: p1.pageInfo.endCursor }, l.read);
  expect(ids(p2)).toEqual(l.items.slice(3, 6).map((x) => x.id));
  expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true, startCursor: l.cursor(3), endCursor: l.cursor(5) });
  const p3 = await paginate({ first: 3, after: p2.pageInfo.endCursor }, l.read);
  expect(ids(p3)).toEqual([l.items[6]!.id]);
  expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
});

test('behavior: last/before pages backward; edges keep the list order and PageInfo says what lies either side', async () => {
  const l = list(7);
  const tail = await paginate({ last: 3 }, l.read);
  expect(ids(tail)).toEqual(l.items.slice(4, 7).map((x) => x.id));
  expect(tail.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: l.cursor(4), endCursor: l.cursor(6) });
  const mid = await paginate({ last: 3, before: tail.pageInfo.startCursor }, l.read);
  expect(ids(mid)).toEqual(l.items.slice(1, 4).map((x) => x.id));
  expect(mid.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  const head = await paginate({ last: 3, before: mid.pageInfo.startCursor }, l.read);
  expect(ids(head)).toEqual([l.items[0]!.id]);
  expect(head.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: l.cursor(0), endCursor: l.cursor(0) });
  const none = await paginate({ last: 3, before: head.pageInfo.startCursor }, l.read);
  expect(none.edges).toEqual([]);
  expect(none.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null });
});

test('behavior: walking backward from the end visits exactly the items walking forward visits', async () => {
  const l = list(23);
  const forward: string[] = [];
  for (let after: string | null = null, more = true; more;) {
    const p: Connection<string> = await paginate({ first: 5, after }, l.read);
    forward.push(...ids(p));
    after = p.pageInfo.endCursor;
    more = p.pageInfo.hasNextPage;
  }
  const backward: string[] = [];
  for (let before: string | null = null, more = true; more;) {
    const p: Connection<string> = await paginate({ last: 5, before }, l.read);
    backward.unshift(...ids(p));
    before = p.pageInfo.startCursor;
    more = p.pageInfo.hasPreviousPage;
  }
  expect(forward).toEqual(l.items.map((x) => x.id));
  expect(backward).toEqual(forward);
});

test('behavior: a cursor whose item is gone still bounds the page (compared by position, not looked up)', async () => {
  const l = list(5);
  const gone = cursorOf(new Date(Date.parse(l.items[2]!.at) - 1).toISOString(), 'item_gone');
  // between items 2 and 3 in the order: before it are items 0-2, after it items 3-4
  const back = await paginate({ last: 10, before: gone }, l.read);
  expect(ids(back)).toEqual(l.items.slice(0, 3).map((x) => x.id));
  expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
});

test(`behavior: backward paging reads pages of 100 and reaches the ${MAX_BACKWARD_SCAN} newest items; farther is INVALID_REQUEST naming the argument`, async () => {
  const l = list(MAX_BACKWARD_SCAN + 150);
  const near = await paginate({ last: 2, before: l.cursor(250) }, l.read);
  expect(ids(near)).toEqual([l.items[248]!.id, l.items[249]!.id]);
  expect(l.reads()).toBe(3);
  expect(await codeOf(paginate({ last: 2 }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['last'] });
  expect(await codeOf(paginate({ last: 2, before: l.cursor(MAX_BACKWARD_SCAN + 100) }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['before'] });
  const small = list(MAX_BACKWARD_SCAN);
  expect(ids(await paginate({ last: 1 }, small.read))).toEqual([small.items[MAX_BACKWARD_SCAN - 1]!.id]);
});

test('error: mixing directions, a bad `last` or a foreign `before` is INVALID_REQUEST naming the argument', async () => {
  const l = list(3);
  expect(await codeOf(paginate({ first: 1, last: 1 }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['last'] });
  expect(await codeOf(paginate({ after: l.cursor(0), before: l.cursor(1) }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['before'] });
  expect(await codeOf(paginate({ first: 1, before: l.cursor(1) }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['before'] });
  expect(await codeOf(paginate({ last: 0 }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['last'] });
  expect(await codeOf(paginate({ last: 101 }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['last'] });
  expect(await codeOf(paginate({ last: 1, before: 'not-a-cursor' }, l.read))).toEqual({ code: 'INVALID_REQUEST', paths: ['before'] });
  // explicit nulls are absent arguments
  expect(ids(await paginate({ first: null, after: null, last: 1, before: null }, l.read))).toEqual([l.items[2]!.id]);
});
