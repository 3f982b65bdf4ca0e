import { writeSync } from 'node:fs';
import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths never written to logs: credentials, keys and payment proofs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-payment-proof"]',
  'req.headers["x-payment"]',
  'req.headers["payment-signature"]',
  'signature',
  '*.signature',
  'headers.authorization',
  'authorization',
  'apiKey',
  'apiKey.key',
  'key',
  'privateKey',
  'masterKey',
  '*.privateKey',
  '*.apiKey',
];

/** The part of pino's asynchronous destination (sonic-boom) the logger here uses. */
interface SonicBoomLike extends pino.DestinationStream {
  write(chunk: string): boolean;
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
  fd: number;
  destroyed: boolean;
}

/** Every batch whose lines an exit must write (one `exit` listener for all; a process makes a handful of loggers). */
const BATCHES = new Set<TurnBatchedDestination>();

/**
 * Lines logged during one turn of the event loop, handed to `sonic` as one
 * string at the end of the turn (setImmediate). sonic-boom measures its
 * whole pending buffer (Buffer.byteLength of a string it appends every line
 * to) on each write, so while a write is in flight every line cost a copy of
 * all those before it: 1.3–1.6 µs a line against ~0.05 µs here, and the access
 * log's share of a keyed read fell from ~20 % to a few percent. Order is
 * kept (one queue, handed over in order); `flush`/`flushSync` hand over what
 * is pending first; on exit the pending lines are written synchronously
 * after what sonic-boom still holds, so a crash keeps them as pino would.
 */
class TurnBatchedDestination {
  private pending: string[] = [];
  private scheduled = false;
  constructor(readonly sonic: SonicBoomLike) {
    if (BATCHES.size === 0) process.on('exit', () => BATCHES.forEach((b) => b.writePendingSync()));
    BATCHES.add(this);
  }
  write(line: string): boolean {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.handOver());
    }
    return true;
  }
  /** Gives the pending lines to sonic-boom, which writes them asynchronously. */
  handOver(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.sonic.destroyed) return;
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.sonic.write(text);
  }
  flush(cb?: (err?: Error) => void): void {
    this.handOver();
    this.sonic.flush(cb);
  }
  flushSync(): void {
    this.handOver();
    this.sonic.flushSync();
  }
  writePendingSync(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    try {
      if (!this.sonic.destroyed) this.sonic.flushSync();
      writeSync(this.sonic.fd, text);
    } catch {
      // (the process is exiting: a destination that cannot take them loses these lines, as pino's own exit flush would)
    }
  }
}

/**
 * Where logs go when no destination is given: stdout (or `dest`, a file
 * path or descriptor), written asynchronously. A log call only appends to a
 * list; the lines of one event-loop turn go to pino's asynchronous
 * destination together (TurnBatchedDestination), which writes them while
 * requests keep running, several turns per write under load (a synchronous
 * write per line cost the REST path 14–25 % of its throughput at `info`).
 * What is buffered is written before the process exits (pino flushes its
 * destination on `exit`, the batch writes its pending lines after), and
 * flushLogger() writes it on a clean shutdown.
 */
export function asyncDestination(dest: string | number = 1): pino.DestinationStream {
  return new TurnBatchedDestination(pino.destination({ dest, sync: false }) as unknown as SonicBoomLike);
}

const BASE = { service: 'wallet-intent-service' };

/** For each logger createLogger made: the same logger without redaction, on the same destination (fixedFieldsWriter). */
const UNREDACTED = new WeakMap<Logger, Logger>();

/** Structured JSON logger (pino) with redaction; asynchronous stdout unless a destination is given (tests pass theirs). */
export function createLogger(level: string, destination: pino.DestinationStream = asyncDestination()): Logger {
  const logger = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: BASE }, destination);
  // Its level is decided by `logger` on every call (fixedFieldsWriter): this one writes whatever it is given.
  UNREDACTED.set(logger, pino({ level: 'trace', base: BASE }, destination));
  return logger;
}

/** A value that no redaction path can reach inside (`*.x` paths match within object fields only). */
export type Primitive = string | number | boolean | null | undefined;

/**
 * A writer for one kind of line whose field names are fixed in code, none a
 * redacted path or the start of one, and whose values are primitives (the
 * access log: ids, method, route, status, duration). Redaction walks every
 * line for its paths, about half the cost of writing such a line, and can
 * never change one of these: the writer skips it and writes the very same
 * JSON to the same destination, at `logger`'s level as it stands at each
 * call. Throws at construction if a field could be redacted.
 */
export function fixedFieldsWriter<K extends string>(
  logger: Logger,
  fields: readonly K[],
): (level: 'info' | 'warn', record: Record<K, Primitive>, msg: string) => void {
  for (const f of fields) {
    if (REDACT_PATHS.some((p) => p.split(/[.[]/)[0] === f)) throw new Error(`fixedFieldsWriter: the field ${f} is redacted`);
  }
  const plain = UNREDACTED.get(logger) ?? logger;
  return (level, record, msg) => {
    if (logger.isLevelEnabled(level)) plain[level](record as Record<string, Primitive>, msg);
  };
}
/** The part of pino's asynchronous destination (sonic-boom) flushLogger reads: bytes buffered, a write in flight, `drain` once both are done. */
interface BufferedDestination {
  _len: number;
  _writing: boolean;
  once(event: 'drain', listener: () => void): unknown;
}

const isBuffered = (s: unknown): s is BufferedDestination =>
  typeof s === 'object' && s !== null && typeof (s as BufferedDestination)._len === 'number' && typeof (s as BufferedDestination).once === 'function';

/**
 * Resolves once what the logger has buffered is written (at once for a
 * destination without a buffer, such as the ones tests pass), or after
 * `timeoutMs` when the destination does not drain (a consumer that stopped
 * reading must not hold a shutdown forever; pino still tries on `exit`).
 */
export function flushLogger(logger: Logger, timeoutMs = 2_000): Promise<void> {
  let stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (stream instanceof TurnBatchedDestination) {
    stream.handOver();
    stream = stream.sonic;
  }
  return new Promise((resolve) => {
    if (!isBuffered(stream) || (stream._len === 0 && !stream._writing)) return resolve();
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref();
    stream.once('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
