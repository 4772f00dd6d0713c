import fc from 'fast-check';
import {
  getNamedType,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';

/**
 * Values for a GraphQL input type as a client would send them in `variables` (JSON), mostly valid and
 * sometimes wrong at any depth: a null where a value is required, a value of another JSON type, an
 * unknown field, a missing required field, a single value where a list is expected. What the coercion
 * comparison in graphql-jit.e2e-spec.ts feeds to graphql-js and graphql-jit alike.
 */
export function inputValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: validValue(type, depth) }, { weight: 1, arbitrary: wrongValue });
}

/** Any JSON value at all: what a wrong value of any type looks like. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, 1.5, -1, 2 ** 31, '', 'x', true, [], {}, [null], '2026-11-25T00:00:00Z'),
);

function validValue(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return validValue(type.ofType, depth);
  if (depth > 6) return fc.constant(null);
  if (isListType(type)) {
    const item = inputValue(type.ofType, depth + 1);
    return fc.oneof({ weight: 4, arbitrary: fc.array(item, { maxLength: 4 }) }, { weight: 1, arbitrary: item });
  }
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const field of fields) record[field.name] = inputValue(field.type, depth + 1);
    // required fields are left out now and then too: that must be refused alike
    const known = fc.record(record, { requiredKeys: [] });
    return fc.oneof(
      { weight: 8, arbitrary: known },
      { weight: 1, arbitrary: known.map((value) => ({ ...value, notAField: 1 })) },
    );
  }
  if (isScalarType(type)) {
    switch (getNamedType(type).name) {
      case 'Int':
        return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
      case 'Float':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return fc.oneof(fc.string(), fc.integer());
      case 'DateTime':
        return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      default:
        return fc.string();
    }
  }
  return wrongValue;
}
