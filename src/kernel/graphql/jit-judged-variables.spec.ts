import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { emptyListForInputObject, jitMayJudge, valuesWithin, variableTypesOf } from './jit-judged-variables';

/** A list nested `depth` levels deep around a single 1: depth + 1 values. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('valuesWithin: every object, list and leaf counts as one value', () => {
  it.each([
    { value: 1, count: 1 },
    { value: null, count: 1 },
    { value: 'text', count: 1 },
    { value: {}, count: 1 },
    { value: [], count: 1 },
    { value: { a: [1, 2] }, count: 4 },
    { value: { a: { b: { c: null } }, d: 'x' }, count: 5 },
    { value: [[], [[]], {}], count: 5 },
    { value: { pod: { tolerations: [{ key: 'k', operator: 'Exists' }] } }, count: 6 },
  ])('$value holds $count values: within $count, not within one less', ({ value, count }) => {
    expect(valuesWithin(value, count)).toBe(true);
    expect(valuesWithin(value, count - 1)).toBe(false);
  });

  it('says no to a long list without walking all of it', () => {
    const long = new Array(1_000_000).fill(1);
    expect(valuesWithin({ n: long }, 256)).toBe(false);
    expect(valuesWithin({ n: long }, 1_000_002)).toBe(true);
  });

  it('counts a value nested 100,000 levels deep without overflowing the stack', () => {
    expect(valuesWithin(nested(100_000), 100_001)).toBe(true);
    expect(valuesWithin(nested(100_000), 256)).toBe(false);
  });

  it('says no to an object with more keys than the limit', () => {
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    expect(valuesWithin(wide, 256)).toBe(false);
    expect(valuesWithin(wide, 10_001)).toBe(true);
  });

  it('is never within a limit below one', () => {
    expect(valuesWithin(1, 0)).toBe(false);
  });
});

const schema = buildSchema(`
  input Toleration { key: String, operator: String }
  input Term { keys: [String!], tolerations: [Toleration!] }
  input Pod { tolerations: [Toleration!], terms: [[Term!]], term: Term!, names: [String!] }
  type Query { place(pod: Pod, pods: [Pod!], count: Int): Int }
`);
const operation = parse('query($pod: Pod, $pods: [Pod!], $count: Int) { place(pod: $pod, pods: $pods, count: $count) }')
  .definitions[0] as OperationDefinitionNode;
const types = variableTypesOf(schema, operation.variableDefinitions!);

describe('emptyListForInputObject: an empty list where the type expects an input object', () => {
  it.each([
    { variables: { pod: [] }, found: true, why: 'a variable of an input object type' },
    { variables: { pod: { term: [] } }, found: true, why: 'a field of an input object type' },
    { variables: { pods: [[]] }, found: true, why: 'an item of a list of input objects' },
    { variables: { pod: { terms: [[[]]] } }, found: true, why: 'an item of a list of lists' },
    { variables: { pod: { terms: [[{ tolerations: [[]] }]] } }, found: true, why: 'deep inside lists and objects' },
    { variables: { pods: { term: [] } }, found: true, why: 'a single value coerced into a list' },
    { variables: { pod: { tolerations: [] } }, found: false, why: 'an empty list where a list is expected' },
    { variables: { pods: [] }, found: false, why: 'an empty list of input objects' },
    { variables: { pod: { names: [], terms: [[], []] } }, found: false, why: 'empty lists where lists are expected' },
    { variables: { pod: { tolerations: [[1]] } }, found: false, why: 'a non-empty list for an input object' },
    { variables: { count: [] }, found: false, why: 'a list for a scalar (refused by both coercions)' },
    { variables: { pod: { unknown: [] } }, found: false, why: 'an unknown field (refused by both coercions)' },
    { variables: { pod: null, pods: [null] }, found: false, why: 'nulls' },
  ])('$why: $variables → $found', ({ variables, found }) => {
    const any = types.some(([name, type]) => emptyListForInputObject((variables as any)[name], type));
    expect(any).toBe(found);
    expect(jitMayJudge(variables, types, 256)).toBe(!found);
  });

  it('leaves variables over the size limit to graphql-js whatever their shape', () => {
    // the variables object, pod, names and its items: 6 values
    expect(jitMayJudge({ pod: { names: ['a', 'b', 'c'] } }, types, 6)).toBe(true);
    expect(jitMayJudge({ pod: { names: ['a', 'b', 'c', 'd'] } }, types, 6)).toBe(false);
  });
});
