import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type DocumentNode,
} from 'graphql';
import { complexityError, complexityLimit, costPlan, readsArguments } from './query-limits';

let estimates = 0;
const Item = new GraphQLObjectType({ name: 'Item', fields: { a: { type: GraphQLInt }, b: { type: GraphQLString } } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      items: {
        type: new GraphQLList(Item),
        args: { limit: { type: GraphQLInt }, filter: { type: GraphQLString } },
        extensions: {
          complexity: readsArguments(
            ({ args, childComplexity }: { args: { limit?: number }; childComplexity: number }) => {
              estimates++;
              return 1 + childComplexity * (args.limit ?? 10);
            },
            'limit',
          ),
        },
      },
      other: {
        type: GraphQLInt,
        args: { n: { type: GraphQLInt }, label: { type: GraphQLString } },
        extensions: { complexity: ({ args }: { args: { n?: number } }) => args.n ?? 1 },
      },
      flag: { type: GraphQLBoolean },
    },
  }),
});

const ITEMS = parse('query Q($l: Int, $f: String) { items(limit: $l, filter: $f) { a b } }');

async function check(document: DocumentNode, variables: Record<string, unknown>, plugin = complexityLimit(50)) {
  const listener = await plugin.requestDidStart!({} as never);
  await listener!.didResolveOperation!({ request: { operationName: 'Q', variables }, document, schema } as never);
}

describe('costPlan: the variables a complexity depends on', () => {
  it('only those in the arguments an estimator declares it reads', () => {
    expect(costPlan(schema, ITEMS)).toEqual(['l']);
  });
  it('every argument of a field whose estimator declares nothing', () => {
    expect(costPlan(schema, parse('query Q($n: Int, $x: String) { other(n: $n, label: $x) }'))).toEqual(['n', 'x']);
  });
  it('directive arguments (they decide which fields count), inside lists and objects too', () => {
    const doc = parse(
      'query Q($s: Boolean!, $f: String, $l: Int) { items(filter: $f, limit: $l) @include(if: $s) { a } flag @skip(if: $s) }',
    );
    expect(costPlan(schema, doc)).toEqual(['l', 's']);
  });
  it('no variables for fields with a number or no estimator', () => {
    expect(costPlan(schema, parse('{ flag }'))).toEqual([]);
  });
});

describe('complexityLimit remembers operations found within the limit by the values of their plan', () => {
  it('does not estimate again when only other variables change', async () => {
    const plugin = complexityLimit(50);
    estimates = 0;
    await check(ITEMS, { l: 5, f: 'x' }, plugin);
    const once = estimates;
    expect(once).toBeGreaterThan(0);
    await check(ITEMS, { l: 5, f: 'y' }, plugin);
    await check(ITEMS, { f: 'z', l: 5 }, plugin);
    expect(estimates).toBe(once);
    // another limit: estimated again
    await check(ITEMS, { l: 6, f: 'x' }, plugin);
    expect(estimates).toBeGreaterThan(once);
  });

  it('refuses what the plain check refuses, every time (a refusal is never remembered)', async () => {
    const plugin = complexityLimit(50);
    await check(ITEMS, { l: 5 }, plugin);
    for (let i = 0; i < 2; i++) {
      const refused = check(ITEMS, { l: 1000 }, plugin);
      await expect(refused).rejects.toThrow(GraphQLError);
      await expect(refused).rejects.toThrow('query complexity 2001 exceeds the limit of 50');
    }
    expect(
      complexityError({ schema, document: ITEMS, operationName: 'Q', variableValues: { l: 1000 } }, 50)?.message,
    ).toBe('query complexity 2001 exceeds the limit of 50');
    // absent and null are different values (the default applies only to an absent variable)
    await check(ITEMS, { l: null }, plugin);
    await check(ITEMS, {}, plugin);
  });

  it('leaves variables that do not fit their types to execution, as before', async () => {
    const plugin = complexityLimit(50);
    await expect(check(ITEMS, { l: 'many' }, plugin)).resolves.toBeUndefined();
    await expect(check(ITEMS, { l: 'many' }, plugin)).resolves.toBeUndefined();
  });
});
