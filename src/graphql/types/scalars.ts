import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from '../builder';

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      throw new GraphQLError('JSON literals cannot contain variables');
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value (object, array, string, number, boolean or null).',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literal,
});

builder.scalarType('DateTime', {
  description: 'An instant as an ISO 8601 UTC timestamp, e.g. 2026-01-31T12:00:00.000Z.',
  serialize: (v) => v,
  parseValue: (v) => {
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return v;
  },
});
