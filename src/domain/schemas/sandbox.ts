import { z } from 'zod';
import { FAULT_KINDS } from '../../chain/faults';
import { chainNameSchema, tokenAssetSchema } from './yields';

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'address must be a 0x-prefixed 20-byte hex address');
const decimalSchema = z.string().regex(/^\d+(\.\d+)?$/, 'amount must be a positive decimal string');

export const setRateSchema = z.strictObject({
  chain: chainNameSchema,
  protocol: z.enum(['aave-v3', 'compound-v3']),
  asset: tokenAssetSchema,
  apy: z.number().min(0).max(1000),
});

export const mintSchema = z.strictObject({
  chain: chainNameSchema,
  asset: tokenAssetSchema,
  address: addressSchema,
  amount: z.union([decimalSchema, z.number().positive().transform(String)]),
});

export const faultSchema = z.strictObject({
  chain: chainNameSchema,
  kind: z.enum(FAULT_KINDS),
  count: z.number().int().min(1).max(100).default(1),
});

export const increaseTimeSchema = z.strictObject({
  chain: chainNameSchema.optional(),
  seconds: z.number().int().min(1).max(10 * 365 * 86400),
});
