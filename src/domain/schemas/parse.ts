import type { z } from 'zod';
import { invalidRequest, type FieldIssue } from '../errors/request';

/** Zod issues as the service's field issues: one per problem, each naming its dotted path. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') {
      return { path: i.keys.join(','), message: `unknown field(s): ${i.keys.join(', ')}`, code: i.code };
    }
    return { path, message: i.message, code: i.code };
  });
}

/** Parses `input` with `schema` or throws INVALID_REQUEST naming every bad field. Shared by REST and GraphQL. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw invalidRequest(toFieldIssues(r.error));
  return r.data;
}
