import type { Db } from 'mongodb';

/** How often the offset to the server's clock is measured again. */
const RESYNC_MS = 60_000;

/**
 * The database server's clock, read through `hello.localTime` (no query needs
 * it, so it works on every server that reports it): every instance that
 * shares rate windows and budget buckets computes them from the same time,
 * whatever the skew between the machines. The offset is measured at start and
 * every minute (half the round trip is taken as the server's delay); between
 * measurements `now()` is the local clock plus the offset.
 */
export interface ServerClock {
  now(): Date;
  /** Local time minus server time at the last measurement, ms (positive: this machine runs ahead). */
  skewMs(): number;
  stop(): void;
}

async function measure(db: Db): Promise<number> {
  const sent = Date.now();
  const hello = await db.admin().command({ hello: 1 });
  const received = Date.now();
  const server = (hello.localTime as Date).getTime();
  return server - (sent + received) / 2;
}

/** Starts following the server's clock; resolves once the first offset is known. */
export async function followServerClock(db: Db, onError: (err: unknown) => void = () => undefined): Promise<ServerClock> {
  let offset = await measure(db);
  const timer = setInterval(() => {
    measure(db).then((o) => {
      offset = o;
    }, onError);
  }, RESYNC_MS);
  timer.unref();
  return {
    now: () => new Date(Date.now() + offset),
    skewMs: () => -offset,
    stop: () => clearInterval(timer),
  };
}
