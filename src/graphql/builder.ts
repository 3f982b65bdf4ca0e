import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from './context';
import './admission';

/** The one Pothos builder; every type file registers itself on it. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: string; Output: string };
  };
  DefaultFieldNullability: false;
}>({ plugins: ['admission'], defaultFieldNullability: false });

builder.queryType({
  description:
    "Reads, each priced in credits like its REST twin. A field whose resource is missing or refused is null with its error (extensions.code as REST's `error`): it never takes its sibling fields with it.",
});
builder.mutationType({
  description: 'Writes, each the twin of a REST route. A refused mutation is null with its error; the other mutations of the operation keep their answers.',
});
builder.subscriptionType({ description: 'Live updates over WebSocket (graphql-ws) or server-sent events.' });
