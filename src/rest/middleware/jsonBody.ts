import type { Middleware } from 'koa';
import type { RestState } from '../context';
import { invalidRequest, payloadTooLarge, unsupportedMediaType } from '../../domain/errors/request';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../../domain/jsonDepth';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON bodies only, bounded: 415 for another content type, 413 past the
 * limit (checked on Content-Length and while streaming), 400 for bad JSON.
 * An empty body is `{}` so validation names the missing fields; nesting
 * past MAX_JSON_DEPTH is 400.
 */
export function jsonBody(limitBytes: number): Middleware<RestState> {
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method)) return next();
    const declared = Number(ctx.get('Content-Length') || 'NaN');
    if (declared > limitBytes) {
      ctx.set('Connection', 'close');
      throw payloadTooLarge(limitBytes);
    }
    const hasBody = declared > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('application/json')) throw unsupportedMediaType(ctx.get('Content-Type') || undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > limitBytes) {
        // Stop reading; the connection closes after the answer instead of draining the rest.
        ctx.set('Connection', 'close');
        throw payloadTooLarge(limitBytes);
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') {
      ctx.state.body = {};
    } else {
      try {
        ctx.state.body = JSON.parse(text);
      } catch (e) {
        throw invalidRequest([{ path: '', message: `body is not valid JSON: ${(e as Error).message}` }], 'Malformed JSON body');
      }
      // Refused before validation: recursive schema checks must never meet a hostile depth.
      if (jsonDepthExceeds(ctx.state.body)) {
        throw invalidRequest(
          [{ path: '', message: `body nests deeper than ${MAX_JSON_DEPTH} levels` }],
          `JSON body nests deeper than ${MAX_JSON_DEPTH} levels`,
        );
      }
    }
    await next();
  };
}
