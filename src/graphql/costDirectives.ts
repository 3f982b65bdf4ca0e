import { FIELD_COSTS, type FieldCost } from './fieldCosts';

/**
 * The cost of every field written into the printed schema (schema.graphql)
 * as IBM's GraphQL cost directives: `@cost(weight:)` on each field that
 * weighs other than 1, `@listSize(…)` on each list sized by its arguments or
 * by a bound. The server's schema does not carry them (graphql-js prints no
 * applied directives); what the SDL shows is FIELD_COSTS, which staticCost
 * prices by.
 */
export const COST_DIRECTIVES = `"""
Work units of resolving the field itself (docs/api-guide.md, "What an operation costs"); a field without it weighs 1. IBM's GraphQL cost directive.
"""
directive @cost(
  """The field's own work units (a number, as a string per the cost spec)."""
  weight: String!
) on FIELD_DEFINITION

"""
How long a list is: the largest of its slicing arguments given, else assumedSize; the lists named in sizedFields (a connection's edges) have that length. Without requireOneSlicingArgument, no slicing argument means assumedSize (the default page). IBM's GraphQL cost directive.
"""
directive @listSize(
  """The length assumed when no slicing argument is given (a connection's default page, or a list's known bound)."""
  assumedSize: Int

  """The arguments whose largest given value is the length (first, last)."""
  slicingArguments: [String!]

  """The child lists (a connection's edges and nodes) that have that length."""
  sizedFields: [String!]

  """Whether a slicing argument must be given; false here: without one the list is assumedSize long."""
  requireOneSlicingArgument: Boolean = true
) on FIELD_DEFINITION
`;

const quoted = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;

/** The directives of one field's cost, as SDL (empty for a field of weight 1 that is no list). */
export function costDirectivesOf(cost: FieldCost): string {
  const out: string[] = [];
  if (cost.weight !== undefined && cost.weight !== 1) out.push(`@cost(weight: "${cost.weight}")`);
  const list = cost.listSize;
  if (list && !list.sizedByParent) {
    const args = [`assumedSize: ${list.assumedSize}`];
    if (list.slicingArguments) args.push(`slicingArguments: ${quoted(list.slicingArguments)}`);
    if (list.sizedFields) args.push(`sizedFields: ${quoted(list.sizedFields)}`);
    if (list.slicingArguments) args.push('requireOneSlicingArgument: false');
    out.push(`@listSize(${args.join(', ')})`);
  }
  return out.join(' ');
}

/**
 * `sdl` (graphql-js printSchema's output) with COST_DIRECTIVES defined first
 * and each field of FIELD_COSTS carrying its directives at the end of its
 * definition (the line closing its arguments, or its one line).
 */
export function withCostDirectives(sdl: string, costs: Readonly<Record<string, FieldCost>> = FIELD_COSTS): string {
  const lines = sdl.split('\n');
  let type: string | null = null;
  let field: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const opened = /^(?:type|interface) (\w+)/.exec(line);
    if (opened) {
      type = opened[1]!;
      continue;
    }
    if (line === '}') {
      type = null;
      continue;
    }
    if (type === null) continue;
    const start = /^ {2}(\w+)(\(|:)/.exec(line);
    if (start) field = start[1]!;
    // A field ends on its own line (`name: T`) or on the line closing its arguments (`): T`).
    const ends = start ? start[2] === ':' : /^ {2}\): /.test(line);
    if (!ends || field === null) continue;
    const cost = costs[`${type}.${field}`];
    const directives = cost ? costDirectivesOf(cost) : '';
    if (directives) lines[i] = `${line} ${directives}`;
    field = null;
  }
  return `${COST_DIRECTIVES}\n${lines.join('\n')}`;
}
