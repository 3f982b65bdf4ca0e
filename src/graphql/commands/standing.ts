import { withoutNulls } from '../resolverHelpers';
import { parseInput } from '../../domain/schemas/parse';
import { createStandingSchema } from '../../domain/schemas/standing';
import type { CreateStandingIntentCommand } from '../../domain/commands';

/** The arguments of Mutation.createStandingIntent as the shared schema reads them (nulls dropped, the wallet id a string): what an Idempotency-Key guards. */
export function createStandingFields(args: { walletId: string | number } & Record<string, unknown>): Record<string, unknown> {
  return withoutNulls({ ...args, walletId: String(args.walletId) });
}

/** Mutation.createStandingIntent's arguments → the command, validated once by the schema both doors share. */
export function createStandingCommandOf(fields: Record<string, unknown>): CreateStandingIntentCommand {
  return parseInput(createStandingSchema, fields);
}
