import type { FieldError, Taint } from '../types';
import { validateNodeTaints } from './validate-node-taints';

const NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const EFFECTS = 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"';
const UNIQUE = 'taints must be unique by key and effect pair';

const inv = (field: string, message: string): FieldError => ({ field, type: 'Invalid value', message });
const t = (taint: Partial<Taint> & Record<string, unknown>) => taint as Taint;

const cases: Array<{ description: string; taints: Taint[]; expected: FieldError[] }> = [
  {
    description: 'B.2.2 valid taints',
    taints: [
      t({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }),
      t({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }),
    ],
    expected: [],
  },
  { description: 'B.2.2 no taints', taints: [], expected: [] },
  {
    description: 'B.2.2 empty key gives two errors',
    taints: [t({ key: '', effect: 'NoSchedule' })],
    expected: [
      inv('taints[0].key', 'Invalid value: "": name part must be non-empty'),
      inv('taints[0].key', `Invalid value: "": ${NAME_REGEX}`),
    ],
  },
  {
    description: 'B.2.2 absent key is an empty key',
    taints: [t({ effect: 'NoSchedule' })],
    expected: [
      inv('taints[0].key', 'Invalid value: "": name part must be non-empty'),
      inv('taints[0].key', `Invalid value: "": ${NAME_REGEX}`),
    ],
  },
  {
    description: 'B.2.2 bad value at .value',
    taints: [t({ key: 'k', value: 'a b', effect: 'NoSchedule' })],
    expected: [inv('taints[0].value', `Invalid value: "a b": ${LABEL_VALUE_REGEX}`)],
  },
  {
    description: 'B.2.2 too long value joined with ";"',
    taints: [t({ key: 'k', value: `${'v'.repeat(64)}-`, effect: 'NoSchedule' })],
    expected: [
      inv('taints[0].value', `Invalid value: "${'v'.repeat(64)}-": must be no more than 63 bytes;${LABEL_VALUE_REGEX}`),
    ],
  },
  {
    description: 'B.8.2 taint values are never validated as numbers',
    taints: [
      t({ key: 'a', value: '95.5', effect: 'NoSchedule' }),
      t({ key: 'b', value: '0100', effect: 'NoSchedule' }),
      t({ key: 'c', value: 'high', effect: 'NoSchedule' }),
      t({ key: 'd', value: '12345678901234567890', effect: 'NoSchedule' }),
    ],
    expected: [],
  },
  {
    description: 'B.2.2 empty effect is Required',
    taints: [t({ key: 'k', effect: '' as never })],
    expected: [{ field: 'taints[0].effect', type: 'Required value', message: 'Required value' }],
  },
  {
    description: 'B.2.2 absent effect is Required',
    taints: [t({ key: 'k' })],
    expected: [{ field: 'taints[0].effect', type: 'Required value', message: 'Required value' }],
  },
  {
    description: 'B.2.2 unknown effect lists three, in upstream order',
    taints: [t({ key: 'k', effect: 'NoScheduled' as never })],
    expected: [
      { field: 'taints[0].effect', type: 'Unsupported value', message: `Unsupported value: "NoScheduled": ${EFFECTS}` },
    ],
  },
  {
    description: 'B.2.2 NoScheduleNoAdmit is not implemented',
    taints: [t({ key: 'k', effect: 'NoScheduleNoAdmit' as never })],
    expected: [
      {
        field: 'taints[0].effect',
        type: 'Unsupported value',
        message: `Unsupported value: "NoScheduleNoAdmit": ${EFFECTS}`,
      },
    ],
  },
  {
    description: 'B.2.2 duplicate (key, effect): the later one at taints[i]',
    taints: [t({ key: 'k', value: 'a', effect: 'NoSchedule' }), t({ key: 'k', value: 'b', effect: 'NoSchedule' })],
    expected: [
      {
        field: 'taints[1]',
        type: 'Duplicate value',
        message: `Duplicate value: {"key":"k","value":"b","effect":"NoSchedule"}: ${UNIQUE}`,
      },
    ],
  },
  {
    description: 'B.2.2 duplicate renders timeAdded as RFC 3339, omits empty value',
    taints: [
      t({ key: 'k', effect: 'NoExecute' }),
      t({ key: 'k', effect: 'NoExecute', timeAdded: new Date('2025-05-01T10:00:00.000Z') }),
    ],
    expected: [
      {
        field: 'taints[1]',
        type: 'Duplicate value',
        message: `Duplicate value: {"key":"k","effect":"NoExecute","timeAdded":"2025-05-01T10:00:00Z"}: ${UNIQUE}`,
      },
    ],
  },
  {
    description: 'B.2.2 same key, different effects are fine',
    taints: [
      t({ key: 'k', effect: 'NoSchedule' }),
      t({ key: 'k', effect: 'NoExecute' }),
      t({ key: 'k', effect: 'PreferNoSchedule' }),
    ],
    expected: [],
  },
  {
    description: 'B.2.2 three of a kind: two duplicates',
    taints: [
      t({ key: 'k', effect: 'NoSchedule' }),
      t({ key: 'k', effect: 'NoSchedule' }),
      t({ key: 'k', effect: 'NoSchedule' }),
    ],
    expected: [
      {
        field: 'taints[1]',
        type: 'Duplicate value',
        message: `Duplicate value: {"key":"k","effect":"NoSchedule"}: ${UNIQUE}`,
      },
      {
        field: 'taints[2]',
        type: 'Duplicate value',
        message: `Duplicate value: {"key":"k","effect":"NoSchedule"}: ${UNIQUE}`,
      },
    ],
  },
  {
    description: 'B.2.2 all checks accumulate',
    taints: [t({ key: 'bad key', value: '-x', effect: 'Never' as never })],
    expected: [
      inv('taints[0].key', `Invalid value: "bad key": ${NAME_REGEX}`),
      inv('taints[0].value', `Invalid value: "-x": ${LABEL_VALUE_REGEX}`),
      { field: 'taints[0].effect', type: 'Unsupported value', message: `Unsupported value: "Never": ${EFFECTS}` },
    ],
  },
  {
    description: 'B.2.2 timeAdded is not validated',
    taints: [t({ key: 'k', effect: 'NoSchedule', timeAdded: 'yesterday' as never })],
    expected: [],
  },
  {
    description: 'B.2.2 wrong JSON types are reported, not thrown',
    taints: [t({ key: 7, value: false, effect: 'NoSchedule' } as never), 'x' as never],
    expected: [
      inv('taints[0].key', 'Invalid value: 7: must be a string'),
      inv('taints[0].value', 'Invalid value: false: must be a string'),
      inv('taints[1]', 'Invalid value: "x": must be an object'),
    ],
  },
];

describe('validateNodeTaints (SEMANTICS B.2.2)', () => {
  it.each(cases)('$description', ({ taints, expected }) => {
    expect(validateNodeTaints(taints)).toEqual(expected);
  });

  it("B.8.8 a caller may use upstream's metadata.taints path", () => {
    expect(validateNodeTaints([t({ key: 'k' })], 'metadata.taints')[0].field).toBe('metadata.taints[0].effect');
  });

  it('B.2.2 a non-list is reported at the path', () => {
    expect(validateNodeTaints({} as never)).toEqual([inv('taints', 'Invalid value: {}: must be a list of taints')]);
  });
});

describe("validateNodeTaints under upstream's path (SEMANTICS B.8.8: metadata.taints[i])", () => {
  it.each([
    {
      description: 'B.8.8 a bad value is reported at metadata.taints[i].value',
      taints: [t({ key: 'k', value: 'a b', effect: 'NoSchedule' })],
      fields: ['metadata.taints[0].value'],
    },
    {
      description: 'B.8.8 an empty effect is Required at metadata.taints[i].effect',
      taints: [t({ key: 'k' })],
      fields: ['metadata.taints[0].effect'],
    },
    {
      description: 'B.8.8 a duplicate is reported at metadata.taints[i]',
      taints: [t({ key: 'k', effect: 'NoSchedule' }), t({ key: 'k', effect: 'NoSchedule' })],
      fields: ['metadata.taints[1]'],
    },
    {
      description: 'B.8.8 an empty key gives two errors at metadata.taints[i].key',
      taints: [t({ key: '', effect: 'NoExecute' })],
      fields: ['metadata.taints[0].key', 'metadata.taints[0].key'],
    },
  ])('$description', ({ taints, fields }) => {
    const errors = validateNodeTaints(taints, 'metadata.taints');
    expect(errors.map((e) => e.field)).toEqual(fields);
    expect(errors.map((e) => e.message)).toEqual(validateNodeTaints(taints).map((e) => e.message));
  });
});
