import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder';
import { invalidRequest } from '../../domain/errors/request';

/**
 * Relay cursor connections (`first/after` and `last/before`, full PageInfo),
 * built over the forward-only listings of the use-cases.
 *
 * Every list of the service (intents, policies, audit events) is kept newest
 * first and read forward from a cursor (`listByWallet(…, {limit, after})`
 * and the like). Edges are always in that order, whichever way one pages:
 *
 * - `first`/`after`: one read of the use-case, plus (with `after`) a read of
 *   the single newest item to answer `hasPreviousPage` exactly.
 * - `last`/`before`: the items before a cursor are the newer ones, which a
 *   newest-first listing reaches only from its start. They are read forward
 *   in pages of 100, keeping the last `last` items newer than `before` (all
 *   items when there is no `before`), up to MAX_BACKWARD_SCAN items: past
 *   that the answer is INVALID_REQUEST telling to page forward. A store
 *   listing in the other order would lift that bound.
 *
 * The two directions do not mix (first/after with last/before): that is
 * INVALID_REQUEST too, naming `last` or `before`.
 */

/** A cursor of these lists: base64url of a JSON [sortKey, id] pair (see encodeCursor, encodeAuditCursor). */
type CursorKey = readonly [string, string];

/** One page as the use-cases answer it (forward only). */
export interface ForwardPage<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** What a connection field resolves to. */
export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfoShape;
}

export interface PageInfoShape {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/** The page arguments as GraphQL hands them (null for an explicit null). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A forward read of a use-case: `first` items strictly after `after` (newest first). */
export type ReadForward<T> = (page: { first?: number; after?: string }) => Promise<ForwardPage<T>>;

/** Largest page, as the use-cases accept (`first`), and the page a backward scan reads at a time. */
export const MAX_PAGE = 100;
/** Page size when neither `first` nor `last` is given. */
export const DEFAULT_PAGE = 20;
/** How many items from the newest a backward page may reach (10 reads of MAX_PAGE). */
export const MAX_BACKWARD_SCAN = 1_000;

export const PageInfoRef = builder.objectRef<PageInfoShape>('PageInfo').implement({
  description: 'Where a page of a connection stands in the whole list (Relay cursor connections).',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether items follow the last edge (older ones): ask with `first` and `after: endCursor`.' }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', {
      description: 'Whether items precede the first edge (newer ones): ask with `last` and `before: startCursor`.',
    }),
    startCursor: t.exposeString('startCursor', { nullable: true, description: 'The cursor of the first edge; null when the page is empty.' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'The cursor of the last edge; null when the page is empty.' }),
  }),
});

/** Descriptions of the four page arguments, shared by every connection field. */
export const PAGE_ARG_DESCRIPTIONS = {
  first: `Forward paging: how many items from the start (or after \`after\`), 1-${MAX_PAGE} (default ${DEFAULT_PAGE}). Not with \`last\`/\`before\`.`,
  after: 'Forward paging: the items after this cursor (an `endCursor` or edge cursor of this list). Not with `last`/`before`.',
  last: `Backward paging: how many items from the end (or before \`before\`), 1-${MAX_PAGE} (default ${DEFAULT_PAGE} with \`before\`); reaches the ${MAX_BACKWARD_SCAN} newest items. Not with \`first\`/\`after\`.`,
  before: `Backward paging: the items before this cursor (a \`startCursor\` or edge cursor of this list), within the ${MAX_BACKWARD_SCAN} newest. Not with \`first\`/\`after\`.`,
} as const;

function keyOf(cursor: string, field: string): CursorKey {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    // not JSON: reported below
  }
  throw invalidRequest([{ path: field, message: `${field} is not a cursor from this list` }]);
}

/** Whether `a` comes before `b` in the newest-first order (sort key, then id, both descending: the stores' order). */
function newer(a: CursorKey, b: CursorKey): boolean {
  return a[0] !== b[0] ? a[0] > b[0] : a[1] > b[1];
}

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

function checkSize(value: number, field: 'last'): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE) {
    throw invalidRequest([
      {
        path: field,
        message: value < 1 ? `${field} must be at least 1` : value > MAX_PAGE ? `${field} must be at most ${MAX_PAGE}` : `${field} must be a whole number`,
      },
    ]);
  }
  return value;
}

/**
 * Waits for the event loop's next turn, so that I/O waiting behind an
 * operation (other requests, /healthz) is served first. Reads that answer at
 * once (the memory store, caches) would otherwise run a whole operation's
 * pages in one turn: its cost bounds the work, this bounds each slice of it.
 */
export const yieldToIO = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What an operation's pages queue on: the turn the last of them waits for. */
export interface TurnQueue {
  turns?: Promise<void>;
}

/**
 * The operation's next turn of its own: each page of one operation waits one
 * turn after the page before it. Pages that each waited yieldToIO alone were
 * all released in the same turn (every setImmediate queued in one turn runs in
 * the next one), so 100 pages and their completion ran as one block again.
 */
export function nextTurn(queue: TurnQueue): Promise<void> {
  const turn = (queue.turns ?? Promise.resolve()).then(yieldToIO);
  queue.turns = turn;
  return turn;
}

/**
 * One Relay page of a newest-first list read forward by `read` (a use-case:
 * it validates `first` and `after` and checks what the caller may list),
 * in the operation's next turn of its own (nextTurn on its context).
 */
export async function paginate<T>(args: PageArgs, read: ReadForward<T>, queue: TurnQueue = {}): Promise<Connection<T>> {
  await nextTurn(queue);
  const forwardArgs = present(args.first) || present(args.after);
  const backwardArgs = present(args.last) || present(args.before);
  if (forwardArgs && backwardArgs) {
    throw invalidRequest([
      {
        path: present(args.last) ? 'last' : 'before',
        message: 'first/after and last/before cannot be combined: page forward with first and after, or backward with last and before',
      },
    ]);
  }
  if (!backwardArgs) return forward(args, read);
  return backward(checkSize(args.last ?? DEFAULT_PAGE, 'last'), args.before ?? undefined, read);
}

async function forward<T>(args: PageArgs, read: ReadForward<T>): Promise<Connection<T>> {
  const after = args.after ?? undefined;
  const page = await read({ ...(present(args.first) && { first: args.first }), ...(after !== undefined && { after }) });
  let hasPreviousPage = false;
  if (after !== undefined) {
    // Items precede the page when the newest item of the list is newer than the cursor (the cursor's own item, if it still exists, is one).
    const top = (await read({ first: 1 })).edges[0];
    hasPreviousPage = top !== undefined && newer(keyOf(top.cursor, 'after'), keyOf(after, 'after'));
  }
  return { edges: page.edges, pageInfo: pageInfo(page.edges, page.pageInfo.hasNextPage, hasPreviousPage) };
}

async function backward<T>(last: number, before: string | undefined, read: ReadForward<T>): Promise<Connection<T>> {
  const bound = before === undefined ? undefined : keyOf(before, 'before');
  const window: { cursor: string; node: T }[] = [];
  let scanned = 0;
  let after: string | undefined;
  let reachedBound = false;
  for (;;) {
    const page = await read({ first: MAX_PAGE, ...(after !== undefined && { after }) });
    for (const edge of page.edges) {
      if (bound !== undefined && !newer(keyOf(edge.cursor, 'before'), bound)) {
        reachedBound = true;
        break;
      }
      window.push(edge);
      if (window.length > last + 1) window.shift();
    }
    scanned += page.edges.length;
    if (reachedBound || !page.pageInfo.hasNextPage || page.edges.length === 0) break;
    if (scanned >= MAX_BACKWARD_SCAN) {
      throw invalidRequest([
        {
          path: before === undefined ? 'last' : 'before',
          message: `backward paging reaches the ${MAX_BACKWARD_SCAN} newest items of this list; page forward with first/after to go farther`,
        },
      ]);
    }
    after = page.edges[page.edges.length - 1]!.cursor;
  }
  const hasPreviousPage = window.length > last;
  const edges = hasPreviousPage ? window.slice(1) : window;
  return { edges, pageInfo: pageInfo(edges, reachedBound, hasPreviousPage) };
}

function pageInfo(edges: readonly { cursor: string }[], hasNextPage: boolean, hasPreviousPage: boolean): PageInfoShape {
  return { hasNextPage, hasPreviousPage, startCursor: edges[0]?.cursor ?? null, endCursor: edges[edges.length - 1]?.cursor ?? null };
}

/** How a connection's types describe their node, in its own words. */
export interface ConnectionWords {
  /** The edge's subject, with its article: 'An intent'. */
  edge: string;
  /** The node in short: 'intent'. */
  one: string;
  /** 'intents'. */
  many: string;
  /** Where the cursor points: 'list' or 'log'. */
  within: string;
  /** The connection type's description. */
  connection: string;
}

/** The Relay Edge and Connection types of one node type (`<Name>Edge`, `<Name>Connection`), built once for every list. */
export function connectionTypes<T, N>(name: string, nodeRef: ObjectRef<typeof builder.$inferSchemaTypes, N>, w: ConnectionWords, toNode: (item: T) => N) {
  const edgeRef = builder.objectRef<Connection<T>['edges'][number]>(`${name}Edge`).implement({
    description: `${w.edge} and its cursor.`,
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: `The position of this ${w.one} in the ${w.within}: pass as \`after\` or \`before\`.` }),
      // Pothos cannot relate a generic N to its own resolver result type: the ref's type is what toNode returns.
      node: t.field({ type: nodeRef, description: `The ${w.one}.`, resolve: (e) => toNode(e.node) as never }),
    }),
  });
  return builder.objectRef<Connection<T>>(`${name}Connection`).implement({
    description: w.connection,
    fields: (t) => ({
      edges: t.field({ type: [edgeRef], description: `The ${w.many} of this page, newest first (whichever way one pages).`, resolve: (c) => c.edges }),
      pageInfo: t.field({
        type: PageInfoRef,
        description: `Whether more ${w.many} precede or follow, and the cursors to ask for them.`,
        resolve: (c) => c.pageInfo,
      }),
    }),
  });
}
