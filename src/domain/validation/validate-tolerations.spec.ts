import fc from 'fast-check';
import type { FieldError, Toleration } from '../types';
import {
  isDecimalInteger,
  usesComparisonOperators,
  validateTolerations,
  validateTolerationsUpdate,
} from './validate-tolerations';

const NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const EMPTY_KEY = 'operator must be Exists when `key` is empty, which means "match all values and all keys"';
const SECONDS = "effect must be 'NoExecute' when `tolerationSeconds` is set";
const EFFECTS = 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"';
const CANONICAL = 'must be a valid decimal integer in canonical form';

const inv = (field: string, message: string): FieldError => ({ field, type: 'Invalid value', message });
const unsup = (field: string, message: string): FieldError => ({ field, type: 'Unsupported value', message });
const t0 = 'tolerations[0]';

const cases: Array<{ description: string; tolerations: Toleration[]; gate?: boolean; expected: FieldError[] }> = [
  {
    description: 'B.2.1 a valid Equal toleration',
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    expected: [],
  },
  {
    description: 'B.2.1 empty operator means Equal and is valid',
    tolerations: [{ key: 'dedicated', value: 'gpu' }],
    expected: [],
  },
  {
    description: 'B.2.1 Exists with no value and no effect is valid',
    tolerations: [{ key: 'k', operator: 'Exists' }],
    expected: [],
  },
  {
    description: 'B.2.1 empty key with Exists is valid (tolerate everything)',
    tolerations: [{ operator: 'Exists' }],
    expected: [],
  },
  {
    description: 'B.2.1 NoExecute with seconds is valid; negative seconds accepted',
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: -5 }],
    expected: [],
  },
  {
    description: 'B.2.1 zero seconds accepted',
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }],
    expected: [],
  },
  {
    description: 'B.2.1 empty key needs Exists (empty operator)',
    tolerations: [{ value: 'x' }],
    expected: [inv(`${t0}.operator`, `Invalid value: "": ${EMPTY_KEY}`)],
  },
  {
    description: 'B.2.1 empty key needs Exists (Equal)',
    tolerations: [{ key: '', operator: 'Equal' }],
    expected: [inv(`${t0}.operator`, `Invalid value: "Equal": ${EMPTY_KEY}`)],
  },
  {
    description: 'B.2.1 bad key is reported at .key',
    tolerations: [{ key: 'bad key', operator: 'Exists' }],
    expected: [inv(`${t0}.key`, `Invalid value: "bad key": ${NAME_REGEX}`)],
  },
  {
    description: 'B.2.1 bad prefix is reported at .key',
    tolerations: [{ key: '/x', operator: 'Exists' }],
    expected: [inv(`${t0}.key`, 'Invalid value: "/x": prefix part must be non-empty')],
  },
  {
    description: 'B.8.7 tolerationSeconds with NoSchedule',
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 60 }],
    expected: [inv(`${t0}.effect`, `Invalid value: "NoSchedule": ${SECONDS}`)],
  },
  {
    description: 'B.8.7 tolerationSeconds with an empty effect',
    tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 60 }],
    expected: [inv(`${t0}.effect`, `Invalid value: "": ${SECONDS}`)],
  },
  {
    description: 'B.8.8 Equal value error is reported at .operator, joined by ";"',
    tolerations: [{ key: 'k', value: `${'v'.repeat(63)}-` }],
    expected: [
      inv(`${t0}.operator`, `Invalid value: "${'v'.repeat(63)}-": must be no more than 63 bytes;${LABEL_VALUE_REGEX}`),
    ],
  },
  {
    description: 'B.8.8 Equal value with a slash',
    tolerations: [{ key: 'k', operator: 'Equal', value: 'a/b' }],
    expected: [inv(`${t0}.operator`, `Invalid value: "a/b": ${LABEL_VALUE_REGEX}`)],
  },
  {
    description: 'B.8.8 Exists with a value is reported at .operator with the toleration',
    tolerations: [{ key: 'k', operator: 'Exists', value: 'v', effect: 'NoExecute', tolerationSeconds: 5 }],
    expected: [
      inv(
        `${t0}.operator`,
        'Invalid value: {"key":"k","operator":"Exists","value":"v","effect":"NoExecute","tolerationSeconds":5}: value must be empty when `operator` is \'Exists\'',
      ),
    ],
  },
  {
    description: 'B.8.8 Exists with a value and an empty key',
    tolerations: [{ operator: 'Exists', value: 'v' }],
    expected: [
      inv(
        `${t0}.operator`,
        'Invalid value: {"operator":"Exists","value":"v"}: value must be empty when `operator` is \'Exists\'',
      ),
    ],
  },
  {
    description: 'B.8.9 unknown operator lists two operators',
    tolerations: [{ key: 'k', operator: 'In', value: 'v' }],
    expected: [unsup(`${t0}.operator`, 'Unsupported value: "In": supported values: "Equal", "Exists"')],
  },
  {
    description: 'B.8.6 operators are case-sensitive (exists)',
    tolerations: [{ key: 'k', operator: 'exists' }],
    expected: [unsup(`${t0}.operator`, 'Unsupported value: "exists": supported values: "Equal", "Exists"')],
  },
  {
    description: 'B.8.9 unknown operator lists two even with the gate on',
    tolerations: [{ key: 'k', operator: 'Ge', value: '1' }],
    gate: true,
    expected: [unsup(`${t0}.operator`, 'Unsupported value: "Ge": supported values: "Equal", "Exists"')],
  },
  {
    description: 'B.8.9 gate off: Gt lists four operators',
    tolerations: [{ key: 'k', operator: 'Gt', value: '5' }],
    gate: false,
    expected: [unsup(`${t0}.operator`, 'Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"')],
  },
  {
    description: 'B.8.4 gate off: Lt lists four operators',
    tolerations: [{ key: 'k', operator: 'Lt', value: '5' }],
    gate: false,
    expected: [unsup(`${t0}.operator`, 'Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"')],
  },
  {
    description: 'B.2.1 gate on: canonical Gt value is valid',
    tolerations: [{ key: 'k', operator: 'Gt', value: '950' }],
    gate: true,
    expected: [],
  },
  {
    description: 'B.2.1 gate on: negative Lt value is valid',
    tolerations: [{ key: 'k', operator: 'Lt', value: '-5' }],
    gate: true,
    expected: [],
  },
  {
    description: 'B.2.1 gate on: "abc" gives two errors at .value',
    tolerations: [{ key: 'k', operator: 'Gt', value: 'abc' }],
    expected: [
      inv(`${t0}.value`, `Invalid value: "abc": ${CANONICAL}`),
      inv(`${t0}.value`, 'Invalid value: "abc": strconv.ParseInt: parsing "abc": invalid syntax'),
    ],
  },
  {
    description: 'B.2.1 gate on: "" gives two errors at .value',
    tolerations: [{ key: 'k', operator: 'Lt' }],
    expected: [
      inv(`${t0}.value`, 'Invalid value: "": must be non-empty'),
      inv(`${t0}.value`, 'Invalid value: "": strconv.ParseInt: parsing "": invalid syntax'),
    ],
  },
  {
    description: 'B.8.2 gate on: "0100" gives one error',
    tolerations: [{ key: 'k', operator: 'Gt', value: '0100' }],
    expected: [inv(`${t0}.value`, `Invalid value: "0100": ${CANONICAL}`)],
  },
  {
    description: 'B.8.2 gate on: "+5" gives one error',
    tolerations: [{ key: 'k', operator: 'Gt', value: '+5' }],
    expected: [inv(`${t0}.value`, `Invalid value: "+5": ${CANONICAL}`)],
  },
  {
    description: 'B.8.2 gate on: "-0" gives one error',
    tolerations: [{ key: 'k', operator: 'Lt', value: '-0' }],
    expected: [inv(`${t0}.value`, `Invalid value: "-0": ${CANONICAL}`)],
  },
  {
    description: 'B.8.2 gate on: "5.0" gives two errors',
    tolerations: [{ key: 'k', operator: 'Lt', value: '5.0' }],
    expected: [
      inv(`${t0}.value`, `Invalid value: "5.0": ${CANONICAL}`),
      inv(`${t0}.value`, 'Invalid value: "5.0": strconv.ParseInt: parsing "5.0": invalid syntax'),
    ],
  },
  {
    description: 'B.8.2 gate on: " 5" (leading space) gives two errors',
    tolerations: [{ key: 'k', operator: 'Gt', value: ' 5' }],
    expected: [
      inv(`${t0}.value`, `Invalid value: " 5": ${CANONICAL}`),
      inv(`${t0}.value`, 'Invalid value: " 5": strconv.ParseInt: parsing " 5": invalid syntax'),
    ],
  },
  {
    description: 'B.8.3 gate on: canonical int64 max is valid',
    tolerations: [{ key: 'k', operator: 'Lt', value: '9223372036854775807' }],
    expected: [],
  },
  {
    description: 'B.8.3 gate on: "12345678901234567890" passes the canonical check, fails the range',
    tolerations: [{ key: 'k', operator: 'Lt', value: '12345678901234567890' }],
    expected: [
      inv(
        `${t0}.value`,
        'Invalid value: "12345678901234567890": strconv.ParseInt: parsing "12345678901234567890": value out of range',
      ),
    ],
  },
  {
    description: 'B.8.7 tolerationSeconds with PreferNoSchedule',
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'PreferNoSchedule', tolerationSeconds: 0 }],
    expected: [inv(`${t0}.effect`, `Invalid value: "PreferNoSchedule": ${SECONDS}`)],
  },
  {
    description: 'B.8.7 tolerationSeconds with an unknown effect: both errors',
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'noexecute', tolerationSeconds: 5 }],
    expected: [
      inv(`${t0}.effect`, `Invalid value: "noexecute": ${SECONDS}`),
      unsup(`${t0}.effect`, `Unsupported value: "noexecute": ${EFFECTS}`),
    ],
  },
  {
    description: 'B.8.8 an Equal value error stays at .operator even with an empty key',
    tolerations: [{ operator: 'Equal', value: 'a b' }],
    expected: [
      inv(`${t0}.operator`, `Invalid value: "Equal": ${EMPTY_KEY}`),
      inv(`${t0}.operator`, `Invalid value: "a b": ${LABEL_VALUE_REGEX}`),
    ],
  },
  {
    description: 'B.8.3 gate on: out of int64 range gives one error',
    tolerations: [{ key: 'k', operator: 'Gt', value: '9223372036854775808' }],
    expected: [
      inv(
        `${t0}.value`,
        'Invalid value: "9223372036854775808": strconv.ParseInt: parsing "9223372036854775808": value out of range',
      ),
    ],
  },
  {
    description: 'B.2.1 unknown effect lists the three effects',
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoScheduled' }],
    expected: [unsup(`${t0}.effect`, `Unsupported value: "NoScheduled": ${EFFECTS}`)],
  },
  {
    description: 'B.2.1 all checks accumulate, in upstream order',
    tolerations: [{ key: 'bad key', operator: 'In', effect: 'Never', tolerationSeconds: 1 }],
    expected: [
      inv(`${t0}.key`, `Invalid value: "bad key": ${NAME_REGEX}`),
      inv(`${t0}.effect`, `Invalid value: "Never": ${SECONDS}`),
      unsup(`${t0}.operator`, 'Unsupported value: "In": supported values: "Equal", "Exists"'),
      unsup(`${t0}.effect`, `Unsupported value: "Never": ${EFFECTS}`),
    ],
  },
  {
    description: 'B.2.1 empty key + bad operator gives both errors',
    tolerations: [{ operator: 'In' }],
    expected: [
      inv(`${t0}.operator`, `Invalid value: "In": ${EMPTY_KEY}`),
      unsup(`${t0}.operator`, 'Unsupported value: "In": supported values: "Equal", "Exists"'),
    ],
  },
  {
    description: 'B.2.1 indexes follow the list',
    tolerations: [{ operator: 'Exists' }, { key: 'k', operator: 'Exists', effect: 'Bad' }],
    expected: [unsup('tolerations[1].effect', `Unsupported value: "Bad": ${EFFECTS}`)],
  },
  {
    description: 'B.2.1 no uniqueness check on tolerations',
    tolerations: [
      { key: 'k', operator: 'Exists' },
      { key: 'k', operator: 'Exists' },
    ],
    expected: [],
  },
  {
    description: 'B.2.1 wrong JSON types are reported, not thrown',
    tolerations: [
      { key: 5, operator: 'Exists', tolerationSeconds: '60', effect: 'NoExecute' } as unknown as Toleration,
    ],
    expected: [
      inv(`${t0}.key`, 'Invalid value: 5: must be a string'),
      inv(`${t0}.tolerationSeconds`, 'Invalid value: "60": must be an integer'),
    ],
  },
  {
    description: 'B.2.1 unreadable seconds still need NoExecute',
    tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 1.5 }],
    expected: [
      inv(`${t0}.tolerationSeconds`, 'Invalid value: 1.5: must be an integer'),
      inv(`${t0}.effect`, `Invalid value: "": ${SECONDS}`),
    ],
  },
  {
    description: 'B.2.1 a non-object entry is reported at its index',
    tolerations: [null as unknown as Toleration],
    expected: [inv(t0, 'Invalid value: null: must be an object')],
  },
  {
    description: 'B.2.1 null fields read as empty',
    tolerations: [
      { key: 'k', operator: null, value: null, effect: null, tolerationSeconds: null } as unknown as Toleration,
    ],
    expected: [],
  },
];

describe('validateTolerations (SEMANTICS B.2.1)', () => {
  it.each(cases)('$description', ({ tolerations, gate, expected }) => {
    expect(validateTolerations(tolerations, 'tolerations', { comparisonOperators: gate ?? true })).toEqual(expected);
  });

  it('B.2.1 uses the given path (pods: spec.tolerations)', () => {
    expect(
      validateTolerations([{ key: 'k', operator: 'In' }], 'spec.tolerations', { comparisonOperators: true })[0].field,
    ).toBe('spec.tolerations[0].operator');
  });

  it('B.2.1 a non-list is reported at the path', () => {
    expect(validateTolerations('x' as unknown as Toleration[], 'tolerations', { comparisonOperators: true })).toEqual([
      inv('tolerations', 'Invalid value: "x": must be a list of tolerations'),
    ]);
  });

  it('B.2.1 IsDecimalInteger messages', () => {
    expect(isDecimalInteger('')).toEqual(['must be non-empty']);
    expect(isDecimalInteger('0')).toEqual([]);
    expect(isDecimalInteger('00')).toEqual([CANONICAL]);
  });

  it('B.2.1 property: validateTolerations never throws on arbitrary input objects', () => {
    const field = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string(),
      fc.constantFrom('Equal', 'Exists', 'Gt', 'Lt', 'NoExecute', ''),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.object(),
    );
    const toleration = fc.oneof(
      fc.record(
        { key: field, operator: field, value: field, effect: field, tolerationSeconds: field },
        { requiredKeys: [] },
      ),
      fc.anything(),
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(toleration), fc.anything()), fc.boolean(), (list, gate) => {
        const errors = validateTolerations(list as Toleration[], 'tolerations', { comparisonOperators: gate });
        for (const error of errors) {
          expect(typeof error.message).toBe('string');
          expect(error.field.startsWith('tolerations')).toBe(true);
        }
        validateTolerationsUpdate(list as Toleration[], list as Toleration[], 'tolerations', {
          comparisonOperators: gate,
        });
      }),
      { numRuns: 300 },
    );
  });
});

const FORBIDDEN: FieldError = {
  field: 'tolerations',
  type: 'Forbidden',
  message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds',
};
const gt: Toleration = { key: 'sla', operator: 'Gt', value: '900' };
const updateCases: Array<{
  description: string;
  old: Toleration[];
  next: Toleration[];
  gate?: boolean;
  expected: FieldError[];
}> = [
  {
    description: 'B.2.1 update: unchanged list is fine',
    old: [{ key: 'k', operator: 'Exists' }],
    next: [{ key: 'k', operator: 'Exists' }],
    expected: [],
  },
  {
    description: 'B.2.1 update: tolerationSeconds may change',
    old: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
    next: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 }],
    expected: [],
  },
  {
    description: 'B.2.1 update: tolerationSeconds may be removed',
    old: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
    next: [{ key: 'k', operator: 'Exists', effect: 'NoExecute' }],
    expected: [],
  },
  {
    description: 'B.2.1 update: additions are allowed',
    old: [{ key: 'k', operator: 'Exists' }],
    next: [
      { key: 'k', operator: 'Exists' },
      { key: 'j', value: 'v' },
    ],
    expected: [],
  },
  {
    description: 'B.2.1 update: order may change',
    old: [
      { key: 'a', operator: 'Exists' },
      { key: 'b', operator: 'Exists' },
    ],
    next: [
      { key: 'b', operator: 'Exists' },
      { key: 'a', operator: 'Exists' },
    ],
    expected: [],
  },
  {
    description: 'B.2.1 update: a changed value is forbidden',
    old: [{ key: 'k', value: 'a' }],
    next: [{ key: 'k', value: 'b' }],
    expected: [FORBIDDEN],
  },
  {
    description: 'B.2.1 update: a removed toleration is forbidden',
    old: [
      { key: 'k', value: 'a' },
      { key: 'j', operator: 'Exists' },
    ],
    next: [{ key: 'j', operator: 'Exists' }],
    expected: [FORBIDDEN],
  },
  {
    description: 'B.2.1 update: "" to "Equal" operator is a modification',
    old: [{ key: 'k', value: 'a' }],
    next: [{ key: 'k', operator: 'Equal', value: 'a' }],
    expected: [FORBIDDEN],
  },
  {
    description: 'B.2.1 update: new list is validated too',
    old: [],
    next: [{ key: 'k', operator: 'In' }],
    expected: [unsup(`${t0}.operator`, 'Unsupported value: "In": supported values: "Equal", "Exists"')],
  },
  {
    description: 'B.8.4 update: gate off rejects a new Gt',
    old: [{ key: 'k', operator: 'Exists' }],
    next: [{ key: 'k', operator: 'Exists' }, gt],
    gate: false,
    expected: [
      unsup('tolerations[1].operator', 'Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"'),
    ],
  },
  {
    description: 'B.8.4 update: gate off, old list already uses Gt: ratchet allows it',
    old: [gt],
    next: [gt, { key: 'x', operator: 'Lt', value: '5' }],
    gate: false,
    expected: [],
  },
  {
    description: 'B.8.4 update: ratchet still validates Gt values',
    old: [gt],
    next: [gt, { key: 'x', operator: 'Lt', value: '05' }],
    gate: false,
    expected: [inv('tolerations[1].value', `Invalid value: "05": ${CANONICAL}`)],
  },
];

describe('validateTolerationsUpdate (SEMANTICS B.2.1 validateOnlyAddedTolerations + ratchet)', () => {
  it.each(updateCases)('$description', ({ old, next, gate, expected }) => {
    expect(validateTolerationsUpdate(old, next, 'tolerations', { comparisonOperators: gate ?? true })).toEqual(
      expected,
    );
  });

  it('B.2.1 usesComparisonOperators', () => {
    expect(usesComparisonOperators([{ key: 'k', operator: 'Exists' }])).toBe(false);
    expect(usesComparisonOperators([gt])).toBe(true);
    expect(usesComparisonOperators('x' as unknown as Toleration[])).toBe(false);
  });
});
