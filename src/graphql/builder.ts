import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from './context';

/** The one Pothos builder; every type file registers itself on it. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: string; Output: string };
  };
  DefaultFieldNullability: false;
}>({ defaultFieldNullability: false });

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
