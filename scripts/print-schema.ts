import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/graphql/schema';
import { withCostDirectives } from '../src/graphql/costDirectives';

/** Where the printed schema is committed (docs/architecture.md: a test fails when it is stale). */
export const SCHEMA_PATH = join(__dirname, '..', 'schema.graphql');

/** The SDL of the Pothos schema as committed in schema.graphql, each field's cost written as a directive (src/graphql/costDirectives.ts). */
export function schemaSDL(): string {
  return `${withCostDirectives(printSchema(buildSchema()))}\n`;
}

// `npm run schema`: rewrite schema.graphql.
if (require.main === module) {
  writeFileSync(SCHEMA_PATH, schemaSDL());
  console.log(`wrote ${SCHEMA_PATH}`);
}
