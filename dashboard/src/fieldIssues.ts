import type { CombinedError } from '@urql/core';

/**
 * The field errors of an INVALID_REQUEST answer, by field name: the
 * service names every bad field in `extensions.details.issues` (path "amount"),
 * and GraphQL names a variable it could not coerce as ["variables", "amount"].
 * Issues that name no field of `fields` are left for the form's general notice.
 */
export function fieldIssues(error: CombinedError | null | undefined, fields: readonly string[]): { byField: Record<string, string>; other: string[] } {
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const e of error?.graphQLErrors ?? []) {
    const details = e.extensions?.details as { issues?: { path?: unknown; message?: unknown }[] } | undefined;
    for (const issue of details?.issues ?? []) {
      const path = Array.isArray(issue.path) ? issue.path.map(String) : String(issue.path ?? '').split('.');
      const name = path[0] === 'variables' ? path[1] : path[0];
      const message = String(issue.message ?? 'invalid');
      if (name && fields.includes(name)) byField[name] ??= message;
      else other.push(message);
    }
  }
  return { byField, other };
}
