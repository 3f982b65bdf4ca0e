import type { Db } from 'mongodb';
import { createSystemClock, type Clock } from '../../domain/clock';

/** How often the offset to the server's clock is measured again. */
const RESYNC_MS = 60_000;

/**
 * The database server's clock, read through `hello.localTime` (no query needs
 * it, so it works on every server that reports it): every instance that
 * shares rate windows and budget buckets computes them from the same time,
 * whatever the skew between the machines. The offset is measured at start and
 * every minute (half the round trip is taken as the server's delay); between
 * measurements `now()` is the service's clock plus the offset.
 */
export interface ServerClock {
  now(): Date;
  /** Local time minus server time at the last measurement, ms (positive: this machine runs ahead). */
  skewMs(): number;
  stop(): void;
}

async function measure(db: Db, clock: Pick<Clock, 'now'>): Promise<number> {
  const sent = clock.now().getTime();
  const hello = await db.admin().command({ hello: 1 });
  const received = clock.now().getTime();
  const server = (hello.localTime as Date).getTime();
  return server - (sent + received) / 2;
}

/** Starts following the server's clock against the service's `clock`; resolves once the first offset is known. */
export async function followServerClock(db: Db, clock: Clock = createSystemClock(), onError: (err: unknown) => void = () => undefined): Promise<ServerClock> {
  let offset = await measure(db, clock);
  let stopped = false;
  let timer: number | undefined;
  const schedule = (): void => {
    timer = clock.setTimeout(
      () => {
        measure(db, clock).then((o) => {
          offset = o;
        }, onError);
        if (!stopped) schedule();
      },
      RESYNC_MS,
      { background: true },
    );
  };
  schedule();
  return {
    now: () => new Date(clock.now().getTime() + offset),
    skewMs: () => -offset,
    stop: () => {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
