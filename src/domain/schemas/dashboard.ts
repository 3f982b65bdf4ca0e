import { z } from 'zod';
import { scopesSchema } from './admin';

/** A key created from the dashboard: a name people recognise it by, and its scopes (both by default). */
export const dashboardKeySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(64, 'name must be at most 64 characters')
    .refine((n) => ![...n].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'name must not contain control characters'),
  scopes: scopesSchema.default(['read', 'write']),
});
