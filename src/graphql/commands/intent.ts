import { withoutNulls } from '../resolverHelpers';
import { parseCreateIntent } from '../../domain/schemas/intent';
import type { CreateIntentCommand } from '../../domain/commands';

/** CreateIntentInput as Pothos hands it to a resolver (absent fields null). */
export interface CreateIntentArgs {
  walletId: string | number;
  sources?: readonly ({ protocol?: string | null } & Record<string, unknown>)[] | null;
  [field: string]: unknown;
}

/**
 * The input's fields as the shared schema reads them: nulls dropped, the
 * wallet id a string, and a rebalance source without a protocol its idle
 * funds (protocol null, as the schema spells it). What an Idempotency-Key
 * guards on this door.
 */
export function createIntentFields(input: CreateIntentArgs): Record<string, unknown> {
  const { sources, ...rest } = input;
  return withoutNulls({
    ...rest,
    walletId: String(input.walletId),
    sources: sources?.map((source) => ({ ...source, protocol: source.protocol ?? null })),
  });
}

/** CreateIntentInput → the command (createIntent, previewIntent), validated once by the schema both doors share. */
export function createIntentCommandOf(fields: Record<string, unknown>): CreateIntentCommand {
  return parseCreateIntent(fields);
}
