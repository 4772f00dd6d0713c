import type { FieldError } from '../types';
import {
  aggregateMessages,
  duplicate,
  forbidden,
  formatFieldError,
  formatInvalidObject,
  goQuote,
  invalid,
  notSupported,
  renderBadValue,
  required,
} from './field-errors';

const constructorCases: Array<{ description: string; error: FieldError; expected: FieldError }> = [
  {
    description: 'B.2 Invalid value quotes a string bad value',
    error: invalid('tolerations[0].key', 'abc', 'bad'),
    expected: { field: 'tolerations[0].key', type: 'Invalid value', message: 'Invalid value: "abc": bad' },
  },
  {
    description: 'B.2 Invalid value prints numbers plain',
    error: invalid('x', 42, 'too big'),
    expected: { field: 'x', type: 'Invalid value', message: 'Invalid value: 42: too big' },
  },
  {
    description: 'B.2 Invalid value without detail',
    error: invalid('x', true, ''),
    expected: { field: 'x', type: 'Invalid value', message: 'Invalid value: true' },
  },
  {
    description: 'B.2 Unsupported value keeps the given order (effects)',
    error: notSupported('taints[0].effect', 'NoScheduled', ['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
    expected: {
      field: 'taints[0].effect',
      type: 'Unsupported value',
      message: 'Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    },
  },
  {
    description: 'B.8.9 Unsupported value with the four operators',
    error: notSupported('o', 'Gt', ['Equal', 'Exists', 'Lt', 'Gt']),
    expected: {
      field: 'o',
      type: 'Unsupported value',
      message: 'Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"',
    },
  },
  {
    description: 'B.2 Unsupported value with no valid values has no detail',
    error: notSupported('o', 'x', []),
    expected: { field: 'o', type: 'Unsupported value', message: 'Unsupported value: "x"' },
  },
  {
    description: 'B.2 Required value without detail',
    error: required('taints[0].effect'),
    expected: { field: 'taints[0].effect', type: 'Required value', message: 'Required value' },
  },
  {
    description: 'B.2 Required value with detail',
    error: required('f', 'must be set'),
    expected: { field: 'f', type: 'Required value', message: 'Required value: must be set' },
  },
  {
    description: 'B.2.2 Duplicate value renders objects as JSON',
    error: duplicate(
      'taints[1]',
      { key: 'k', value: 'v', effect: 'NoSchedule' },
      'taints must be unique by key and effect pair',
    ),
    expected: {
      field: 'taints[1]',
      type: 'Duplicate value',
      message:
        'Duplicate value: {"key":"k","value":"v","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    },
  },
  {
    description: 'B.2 Duplicate value without detail',
    error: duplicate('f', 'a'),
    expected: { field: 'f', type: 'Duplicate value', message: 'Duplicate value: "a"' },
  },
  {
    description: 'B.2.1 Forbidden prints its detail',
    error: forbidden('tolerations', 'existing toleration can not be modified except its tolerationSeconds'),
    expected: {
      field: 'tolerations',
      type: 'Forbidden',
      message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds',
    },
  },
];

describe('field error constructors (SEMANTICS B.2 error rendering)', () => {
  it.each(constructorCases)('$description', ({ error, expected }) => {
    expect(error).toEqual(expected);
  });
});

const quoteCases = [
  { description: 'B.2 %q plain string', value: 'abc', expected: '"abc"' },
  { description: 'B.2 %q escapes quote and backslash', value: 'a"b\\c', expected: '"a\\"b\\\\c"' },
  {
    description: 'B.2 %q short escapes for control characters',
    value: '\x07\b\f\n\r\t\v',
    expected: '"\\a\\b\\f\\n\\r\\t\\v"',
  },
  { description: 'B.2 %q other control bytes as \\x', value: '\x00\x1b\x7f', expected: '"\\x00\\x1b\\x7f"' },
  { description: 'B.2 %q keeps printable unicode', value: 'héllo 世界 😀', expected: '"héllo 世界 😀"' },
  { description: 'B.2 %q escapes non-printable unicode', value: '\u00a0\u200b', expected: '"\\u00a0\\u200b"' },
  { description: 'B.2 %q escapes non-printable astral runes with \\U', value: '\u{e0001}', expected: '"\\U000e0001"' },
  { description: 'B.2 %q shows a lone surrogate as U+FFFD', value: '\ud800', expected: '"\ufffd"' },
];

describe('goQuote (Go strconv.Quote)', () => {
  it.each(quoteCases)('$description', ({ value, expected }) => {
    expect(goQuote(value)).toBe(expected);
  });
});

const badValueCases: Array<{ description: string; value: unknown; expected: string }> = [
  { description: 'B.2 null bad value', value: null, expected: 'null' },
  { description: 'B.2 undefined bad value', value: undefined, expected: 'null' },
  { description: 'B.2 bigint bad value', value: 10n, expected: '10' },
  {
    description: 'B.2 json.Marshal escapes <, > and &',
    value: { a: '<&>' },
    expected: '{"a":"\\u003c\\u0026\\u003e"}',
  },
  {
    description: 'B.2 dates render as RFC 3339 seconds',
    value: { t: new Date('2025-01-02T03:04:05.678Z') },
    expected: '{"t":"2025-01-02T03:04:05Z"}',
  },
  { description: 'B.2 invalid dates render as null', value: [new Date(NaN)], expected: '[null]' },
  { description: 'B.2 nested bigint inside an object', value: { n: 5n }, expected: '{"n":"5"}' },
  { description: 'B.2 a function renders as null', value: () => 1, expected: 'null' },
];

describe('renderBadValue', () => {
  it.each(badValueCases)('$description', ({ value, expected }) => {
    expect(renderBadValue(value)).toBe(expected);
  });

  it('B.2 never throws on a cyclic value', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => renderBadValue(cyclic)).not.toThrow();
  });
});

const e1 = notSupported('tolerations[0].operator', 'In', ['Equal', 'Exists']);
const e2 = notSupported('tolerations[1].effect', 'Never', ['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
const invalidObjectCases: Array<{
  description: string;
  kind: string;
  name: string;
  errors: FieldError[];
  expected: string;
}> = [
  {
    description: 'B.2 one error: no brackets',
    kind: 'Node',
    name: 'n1',
    errors: [notSupported('taints[0].effect', 'NoScheduled', ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])],
    expected:
      'Node "n1" is invalid: taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  },
  {
    description: 'B.2 several errors: bracketed, joined by ", "',
    kind: 'Pod',
    name: 'x',
    errors: [e1, e2],
    expected:
      'Pod "x" is invalid: [tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists", tolerations[1].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"]',
  },
  {
    description: 'B.2 identical messages are aggregated once',
    kind: 'Pod',
    name: 'x',
    errors: [e1, e1],
    expected: `Pod "x" is invalid: ${formatFieldError(e1)}`,
  },
  {
    description: 'B.2 no errors: just "is invalid"',
    kind: 'Pod',
    name: 'x',
    errors: [],
    expected: 'Pod "x" is invalid',
  },
  {
    description: 'B.2 the name is %q-quoted',
    kind: 'Pod',
    name: 'a"b',
    errors: [],
    expected: 'Pod "a\\"b" is invalid',
  },
];

describe('formatInvalidObject (errors.NewInvalid)', () => {
  it.each(invalidObjectCases)('$description', ({ kind, name, errors, expected }) => {
    expect(formatInvalidObject(kind, name, errors)).toBe(expected);
  });

  it('B.2 aggregateMessages of nothing is empty', () => {
    expect(aggregateMessages([])).toBe('');
  });
});
