import { z } from 'zod';

export const METADATA_MAX_BYTES = 8 * 1024;
export const METADATA_MAX_DEPTH = 5;

/** Walks a JSON value and reports keys that a document store would misread (`$op`, dotted paths) and excess depth. */
function checkMetadata(value: unknown, path: (string | number)[], depth: number, ctx: z.RefinementCtx): void {
  if (value === null || typeof value !== 'object') return;
  if (depth > METADATA_MAX_DEPTH) {
    ctx.addIssue({ code: 'custom', path, message: `metadata nesting deeper than ${METADATA_MAX_DEPTH} levels` });
    return;
  }
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (typeof k === 'string' && (k.startsWith('$') || k.includes('.'))) {
      ctx.addIssue({ code: 'custom', path: [...path, k], message: 'metadata keys must not start with "$" or contain "."' });
    }
    checkMetadata(v, [...path, k], depth + 1, ctx);
  }
}

export const metadataSchema = z
  .record(z.string(), z.json())
  .superRefine((value, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
    if (bytes > METADATA_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: `metadata is ${bytes} bytes serialised; the limit is ${METADATA_MAX_BYTES}` });
    }
    checkMetadata(value, [], 1, ctx);
  })
  .meta({
    description: `Free-form JSON object kept with the wallet and shown to its owner only: at most ${METADATA_MAX_BYTES} bytes serialised, nesting at most ${METADATA_MAX_DEPTH} levels, and no key at any depth that starts with "$" or contains "."`,
    examples: [{ plan: 'gold', tags: ['beta'] }],
  });
