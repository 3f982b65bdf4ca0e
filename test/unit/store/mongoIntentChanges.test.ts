import { EventEmitter } from 'node:events';
import { MongoServerError, type ChangeStreamOptions, type Db, type Document } from 'mongodb';
import { createMongoIntentChanges } from '../../../src/store/mongo/mongoIntentChanges';
import type { IntentChange } from '../../../src/ports/store';
import type { Intent } from '../../../src/domain/intent';
import { pendingIntent } from '../engine/intentFixture';

/**
 * The adapter's resume logic against an in-test change-stream server (the
 * test MongoDB has no change streams; the contract suite runs the real one on
 * a replica set). Token `{ n }` is the position after the log's n-th event.
 */
interface Token {
  n: number;
}
interface Event {
  _id: Token;
  operationType: 'insert' | 'replace' | 'invalidate';
  fullDocument?: Intent & { _id: string };
}

class FakeServer {
  readonly log: Event[] = [];
  readonly opens: { pipeline: Document[]; options: ChangeStreamOptions }[] = [];
  readonly streams: FakeStream[] = [];
  /** Thrown by the next reads, one each. */
  readonly failures: Error[] = [];
  /** Thrown by the next opens (the aggregate that starts a stream), one each. */
  readonly openFailures: Error[] = [];
  /** Positions below this are gone from the oplog. */
  lostBelow = 0;

  write(intent: Intent, operationType: Event['operationType'] = intent.version === 0 ? 'insert' : 'replace'): void {
    const n = this.log.length + 1;
    this.log.push(operationType === 'invalidate' ? { _id: { n }, operationType } : { _id: { n }, operationType, fullDocument: { ...intent, _id: `oid_${n}` } });
  }

  db(): Db {
    const watch = (pipeline: Document[], options: ChangeStreamOptions) => {
      this.opens.push({ pipeline, options });
      const stream = new FakeStream(this, options);
      this.streams.push(stream);
      return stream;
    };
    return { collection: (name: string) => (name === 'intents' ? { watch } : undefined) } as unknown as Db;
  }
}

class FakeStream extends EventEmitter {
  resumeToken: Token | null;
  closed = false;
  private pos: number | undefined;

  constructor(
    private readonly server: FakeServer,
    options: ChangeStreamOptions,
  ) {
    super();
    this.resumeToken = (options.startAfter ?? options.resumeAfter ?? null) as Token | null;
  }

  async tryNext(): Promise<Event | null> {
    await new Promise((r) => setTimeout(r, 2));
    if (this.closed) throw new Error('ChangeStream is closed');
    if (this.pos === undefined) {
      // opened lazily, on the first read, as the driver does
      const from = this.resumeToken?.n ?? this.server.log.length;
      const refused = this.server.openFailures.shift();
      if (refused) {
        this.closed = true;
        throw refused;
      }
      if (from < this.server.lostBelow) {
        this.closed = true;
        throw new MongoServerError({ message: 'Resume of change stream was not possible', code: 286 });
      }
      this.pos = from;
      this.resumeToken = { n: from };
      this.emit('resumeTokenChanged', this.resumeToken);
    }
    const failure = this.server.failures.shift();
    if (failure) {
      this.closed = true;
      throw failure;
    }
    const event = this.server.log[this.pos];
    if (event) this.pos += 1;
    this.resumeToken = { n: this.pos };
    return event ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

const snap = (version: number, id = 'intent_cs'): Intent => pendingIntent({ id, version });

async function until(done: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
}

describe('MongoDB intent change feed: reopening and resuming', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((s) => s()));
  });

  async function watch(server: FakeServer, resumeAfter?: unknown) {
    const feed = createMongoIntentChanges(server.db(), { retryMs: 5, maxRetryMs: 20 });
    const changes: IntentChange[] = [];
    const errors: unknown[] = [];
    const stop = await feed.watch((c) => changes.push(c), { resumeAfter, onError: (e) => errors.push(e) });
    stops.push(stop);
    return { changes, errors, stop, versions: () => changes.map((c) => c.intent.version) };
  }

  test('behavior: resolves once the stream is open; inserts and replacements are delivered whole, without _id, with their tokens', async () => {
    const server = new FakeServer();
    server.write(snap(0, 'intent_before')); // before the watch: not delivered
    const w = await watch(server);
    expect(server.streams[0]!.resumeToken).toEqual({ n: 1 });
    expect(server.opens[0]!.pipeline[0]).toEqual({ $match: { operationType: { $in: ['insert', 'replace', 'invalidate'] } } });
    expect(server.opens[0]!.options).not.toHaveProperty('resumeAfter');
    server.write(snap(0));
    server.write(snap(1));
    await until(() => w.changes.length === 2);
    expect(w.changes).toEqual([
      { intent: snap(0), resumeToken: { n: 2 } },
      { intent: snap(1), resumeToken: { n: 3 } },
    ]);
    expect(w.errors).toEqual([]);
  });

  test('error: a stream closed by an error is reported and reopened after the last position read: writes meanwhile are delivered, none twice', async () => {
    const server = new FakeServer();
    const w = await watch(server);
    server.write(snap(0));
    await until(() => w.changes.length === 1);
    server.failures.push(new Error('not primary'), new Error('still electing'));
    server.write(snap(1));
    server.write(snap(2));
    await until(() => w.changes.length === 3);
    expect(w.versions()).toEqual([0, 1, 2]);
    expect(w.errors.map((e) => (e as Error).message)).toEqual(['not primary', 'still electing']);
    expect(server.opens.slice(1).map((o) => o.options.resumeAfter)).toEqual([{ n: 1 }, { n: 1 }]);
  });

  test('error: a position the oplog no longer holds (286) is reported and the feed reopens from now', async () => {
    const server = new FakeServer();
    server.write(snap(0));
    server.write(snap(1));
    server.lostBelow = 2;
    const w = await watch(server, { n: 1 });
    expect(w.errors).toEqual([expect.objectContaining({ code: 286 })]);
    expect(server.opens.map((o) => o.options.resumeAfter)).toEqual([{ n: 1 }, undefined]);
    server.write(snap(2));
    await until(() => w.changes.length === 1);
    expect(w.versions()).toEqual([2]);
  });

  test('behavior: resumeAfter delivers what was written after the token', async () => {
    const server = new FakeServer();
    for (const v of [0, 1, 2]) server.write(snap(v));
    const w = await watch(server, { n: 1 });
    await until(() => w.changes.length === 2);
    expect(w.versions()).toEqual([1, 2]);
  });

  test('behavior: an invalidated stream (collection dropped) starts again after the invalidation', async () => {
    const server = new FakeServer();
    const w = await watch(server);
    server.write(snap(0), 'invalidate');
    server.write(snap(0));
    await until(() => w.changes.length === 1);
    expect(server.opens[1]!.options).toMatchObject({ startAfter: { n: 1 } });
    expect(w.versions()).toEqual([0]);
    expect(w.errors).toHaveLength(1);
  });

  test('error: the first open failing (not a lost position) rejects watch, and nothing is reopened', async () => {
    const server = new FakeServer();
    server.openFailures.push(new Error('not authorized'));
    const feed = createMongoIntentChanges(server.db(), { retryMs: 5 });
    const watching = feed.watch(() => undefined);
    watching.then(
      (stop) => stops.push(stop),
      () => undefined,
    );
    await expect(watching).rejects.toThrow('not authorized');
    await new Promise((r) => setTimeout(r, 30));
    expect(server.opens).toHaveLength(1);
  });

  test('error: a read failing right after the open is reported and retried: watch resolves', async () => {
    const server = new FakeServer();
    server.failures.push(new Error('connection reset'));
    const w = await watch(server);
    server.write(snap(0));
    await until(() => w.changes.length === 1);
    expect(w.versions()).toEqual([0]);
    expect(w.errors.map((e) => (e as Error).message)).toEqual(['connection reset']);
    expect(server.opens[1]!.options).toMatchObject({ resumeAfter: { n: 0 } });
  });

  test('error: a throwing listener is reported; the feed goes on', async () => {
    const server = new FakeServer();
    const errors: unknown[] = [];
    const seen: number[] = [];
    const stop = await createMongoIntentChanges(server.db()).watch(
      (c) => {
        seen.push(c.intent.version);
        if (c.intent.version === 0) throw new Error('listener failed');
      },
      { onError: (e) => errors.push(e) },
    );
    stops.push(stop);
    server.write(snap(0));
    server.write(snap(1));
    await until(() => seen.length === 2);
    expect(seen).toEqual([0, 1]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['listener failed']);
  });

  test('behavior: stop closes the stream; nothing is delivered or reopened after it', async () => {
    const server = new FakeServer();
    const w = await watch(server);
    await w.stop();
    expect(server.streams[0]!.closed).toBe(true);
    server.write(snap(0));
    await new Promise((r) => setTimeout(r, 30));
    expect(w.changes).toEqual([]);
    expect(server.opens).toHaveLength(1);
    expect(w.errors).toEqual([]);
  });
});
