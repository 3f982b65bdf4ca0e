import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema as parseSDL } from 'graphql';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { buildSchema } from '../../../src/graphql/schema';

/**
 * The breaking-change check of the GraphQL schema: the
 * schema the code builds, diffed by @graphql-inspector/core against the
 * published baseline docs/schema.baseline.graphql. Every change graphql-
 * inspector rates Breaking must be listed, by its key `TYPE Path`, in the
 * "Breaking changes since the baseline" section of docs/schema-changes.md,
 * and every key listed there must still be one: a breaking change is a
 * deliberate, documented act, and the list is exact. docs/schema-changes.md
 * says how to publish (move the baseline forward).
 *
 * Why a baseline file and not `git show <ref>:schema.graphql`: CI runs on a
 * clean clone of the submitted main, where HEAD already holds the change (a
 * diff against it is always empty), and a developer's own commit would
 * silence it the same way. A baseline moves only when someone moves it, in
 * a diff a reviewer sees.
 */
const ROOT = join(__dirname, '..', '..', '..');
const BASELINE = join(ROOT, 'docs', 'schema.baseline.graphql');
const CHANGES = join(ROOT, 'docs', 'schema-changes.md');
const SECTION = '## Breaking changes since the baseline';

const keyOf = (c: Change) => `${c.type} ${c.path ?? ''}`.trim();

/** The `TYPE Path` keys listed in the section (each in backticks, anywhere on a line). */
function listedKeys(markdown: string): string[] {
  const start = markdown.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/schema-changes.md has no "${SECTION}" section`);
  const rest = markdown.slice(start + SECTION.length);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/`([A-Z][A-Z_]+ [A-Za-z_][\w.]*)`/g)].map((m) => m[1]!);
}

let breaking: Change[];
let listed: string[];

beforeAll(async () => {
  const changes = await diff(parseSDL(readFileSync(BASELINE, 'utf8')), buildSchema());
  breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  listed = listedKeys(readFileSync(CHANGES, 'utf8'));
});

test('behavior: every breaking change against the baseline is listed in docs/schema-changes.md', () => {
  const unlisted = breaking.filter((c) => !listed.includes(keyOf(c))).map((c) => `\`${keyOf(c)}\`: ${c.message}`);
  expect(
    unlisted.length === 0
      ? 'none unlisted'
      : `Breaking GraphQL schema changes not listed under "${SECTION}" in docs/schema-changes.md (make them non-breaking, or list each with why and how clients migrate):\n${unlisted.join('\n')}`,
  ).toBe('none unlisted');
});

test('behavior: every change listed as breaking since the baseline still is one (the list is exact)', () => {
  const keys = new Set(breaking.map(keyOf));
  expect(listed.filter((k) => !keys.has(k))).toEqual([]);
});
