import { z } from 'zod';
import { FAULT_KINDS } from '../sandboxFaults';
import { chainNameSchema, tokenAssetSchema } from './yields';
import { isIsoInstant } from './yieldHistory';
import { ASSET_DECIMALS, LENDING_PROTOCOLS, type TokenAsset } from '../chains';

/** A mint's recipient: a 20-byte hex address, never the zero address (every token's mint refuses it: the chain reverts). */
const addressSchema = z
  .string({ error: 'address must be a string' })
  .regex(/^0x[0-9a-fA-F]{40}$/, 'address must be a 0x-prefixed 20-byte hex address')
  .refine((a) => !/^0x0{40}$/.test(a), 'address must not be the zero address (tokens cannot be minted to it)');
/** Largest mint accepted, in whole tokens: enough for any test, far below what overflows a uint256. */
const MAX_MINT_TOKENS = 10n ** 15n;

/**
 * A decimal amount, as a string or a plain JSON number: positive, no exponent
 * (a number like 1e-7 would need one), at most MAX_MINT_TOKENS, and no more
 * decimals than the asset has (checked with the asset, below).
 */
const amountSchema = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = typeof v === 'number' ? String(v) : v.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) {
    ctx.addIssue({
      code: 'custom',
      message:
        typeof v === 'number'
          ? `amount ${text} is not a plain decimal number; send it as a decimal string`
          : 'amount must be a positive decimal string like "12.5"',
    });
    return z.NEVER;
  }
  if (/^0+(\.0+)?$/.test(text)) {
    ctx.addIssue({ code: 'custom', message: 'amount must be greater than 0' });
    return z.NEVER;
  }
  if (BigInt(text.split('.')[0]!) >= MAX_MINT_TOKENS) {
    ctx.addIssue({ code: 'custom', message: `amount must be below ${MAX_MINT_TOKENS} tokens` });
    return z.NEVER;
  }
  return text;
});

export const setRateSchema = z.strictObject({
  chain: chainNameSchema,
  protocol: z.enum(LENDING_PROTOCOLS),
  asset: tokenAssetSchema,
  apy: z.number().min(0).max(1000),
});

export const mintSchema = z
  .strictObject({
    chain: chainNameSchema,
    asset: tokenAssetSchema,
    address: addressSchema,
    amount: amountSchema,
  })
  .superRefine((m, ctx) => {
    const decimals = ASSET_DECIMALS[m.asset as TokenAsset];
    const given = m.amount.split('.')[1]?.length ?? 0;
    if (given > decimals) ctx.addIssue({ code: 'custom', path: ['amount'], message: `amount has ${given} decimals; ${m.asset} has ${decimals}` });
  });

/** Counted faults (`count` calls fail), or `stall`: the chain mines nothing for `seconds`. */
export const faultSchema = z
  .strictObject({
    chain: chainNameSchema,
    kind: z.enum([...FAULT_KINDS, 'stall']),
    count: z.number().int().min(1).max(100).optional(),
    seconds: z.number().int().min(1).max(600).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.kind === 'stall') {
      if (f.seconds === undefined) ctx.addIssue({ code: 'custom', path: ['seconds'], message: 'a stall needs seconds (1 to 600)' });
      if (f.count !== undefined) ctx.addIssue({ code: 'custom', path: ['count'], message: 'a stall takes seconds, not count' });
    } else if (f.seconds !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['seconds'], message: `seconds is for kind stall; ${f.kind} takes count` });
    }
  });

export const increaseTimeSchema = z.strictObject({
  chain: chainNameSchema.optional(),
  seconds: z
    .number()
    .int()
    .min(1)
    .max(10 * 365 * 86400),
});

/**
 * POST /admin/sandbox/sample: one rate sample now, filed under `at`'s minute
 * when given (how far back it may go needs the time: the use-case checks it).
 */
export const sampleSchema = z.strictObject({
  at: z.string({ error: 'at must be a string' }).refine(isIsoInstant, 'at must be an ISO 8601 date-time (e.g. 2026-01-31T12:00:00Z)').optional(),
});
