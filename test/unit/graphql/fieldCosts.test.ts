import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, getNamedType, getNullableType, isInterfaceType, isListType, isObjectType, parse, print, type GraphQLField } from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';
import { FIELD_COSTS } from '../../../src/graphql/fieldCosts';
import { costDirectivesOf } from '../../../src/graphql/costDirectives';

/** Every field of the schema's object and interface types, keyed `Type.field` (introspection left out). */
function fields(): Map<string, GraphQLField<unknown, unknown>> {
  const out = new Map<string, GraphQLField<unknown, unknown>>();
  for (const type of Object.values(buildSchema().getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
    for (const f of Object.values(type.getFields())) out.set(`${type.name}.${f.name}`, f);
  }
  return out;
}

const ROOTS = ['Query', 'Mutation', 'Subscription'];

describe('field costs', () => {
  test('behavior: every list field of the schema, and every paged one, has a list size (a new list cannot be priced as one item)', () => {
    const unsized = [...fields()]
      .filter(([, f]) => isListType(getNullableType(f.type)) || f.args.some((a) => a.name === 'first' || a.name === 'last'))
      .map(([key]) => key)
      .filter((key) => FIELD_COSTS[key]?.listSize === undefined);
    expect(unsized).toEqual([]);
  });

  test('behavior: every root field weighs what its use case reads (none is priced as a plain field by omission)', () => {
    const unpriced = [...fields().keys()].filter(
      (key) => ROOTS.includes(key.split('.')[0]!) && FIELD_COSTS[key]?.weight === undefined && !FIELD_COSTS[key]?.listSize,
    );
    expect(unpriced).toEqual([]);
  });

  test('behavior: every JSON field is priced as the object it answers, not as one leaf (aliasing a JSON value stays within its price)', () => {
    const unpriced = [...fields()]
      .filter(([, f]) => getNamedType(f.type).name === 'JSON')
      .map(([key]) => key)
      .filter((key) => (FIELD_COSTS[key]?.weight ?? 1) < 10);
    expect(unpriced).toEqual([]);
  });

  test('behavior: every priced field exists (no entry outlives its field)', () => {
    const all = fields();
    expect(Object.keys(FIELD_COSTS).filter((key) => !all.has(key))).toEqual([]);
  });

  test('behavior: schema.graphql shows each field its cost as @cost/@listSize, exactly as the table prices it', () => {
    const sdl = parse(readFileSync(join(__dirname, '..', '..', '..', 'schema.graphql'), 'utf8'));
    const printed = new Map<string, string>();
    for (const def of sdl.definitions) {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
      for (const f of def.fields ?? [])
        printed.set(
          `${def.name.value}.${f.name.value}`,
          (f.directives ?? [])
            .filter((d) => d.name.value !== 'deprecated')
            .map((d) => print(d))
            .join(' '),
        );
    }
    for (const key of fields().keys()) expect([key, printed.get(key)]).toEqual([key, costDirectivesOf(FIELD_COSTS[key] ?? {})]);
  });
});
