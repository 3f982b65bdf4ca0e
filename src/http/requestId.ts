import { randomFillSync } from 'node:crypto';
import { ID_PREFIX } from '../domain/ids';

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to echo (`given` is the header as read, '' when absent), else a new one. */
export function requestIdFor(given: string): string {
  return given !== '' && SAFE.test(given) ? given : newRequestId();
}

/** Random bytes drawn 4 KiB at a time: one syscall per 256 ids instead of one per request. */
const POOL = Buffer.alloc(16 * 256);
let offset = POOL.length;

/** A request id as newId('request') makes them (`req_` + 16 crypto-random bytes in hex), from the pool. */
export function newRequestId(): string {
  if (offset === POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const id = ID_PREFIX.request + POOL.toString('hex', offset, offset + 16);
  offset += 16;
  return id;
}
