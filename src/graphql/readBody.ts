import type { IncomingMessage } from 'node:http';
import { payloadTooLarge } from '../domain/errors/request';

/**
 * Reads a request body, refusing it (413) as soon as it passes `limitBytes`
 * while streaming: a chunked body declares no length, so the count is the check.
 */
export async function readBoundedBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limitBytes) throw payloadTooLarge(limitBytes);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}
