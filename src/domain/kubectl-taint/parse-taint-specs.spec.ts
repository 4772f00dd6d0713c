import fc from 'fast-check';
import { TAINT_EFFECTS, type Taint } from '../types';
import { KubectlTaintError } from './kubectl-taint-error';
import { parseTaintSpecs, printTaintRemovalSpec, printTaintSpec, type TaintChanges } from './parse-taint-specs';

const NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const okCases: Array<{ description: string; specs: string[]; expected: TaintChanges }> = [
  {
    description: 'B.3.2 key=value:effect adds',
    specs: ['dedicated=gpu:NoSchedule'],
    expected: { add: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], remove: [] },
  },
  {
    description: 'B.3.2 key:effect adds without a value',
    specs: ['maintenance:NoExecute'],
    expected: { add: [{ key: 'maintenance', effect: 'NoExecute' }], remove: [] },
  },
  {
    description: 'B.3.2 key=:effect is an empty value',
    specs: ['k=:PreferNoSchedule'],
    expected: { add: [{ key: 'k', effect: 'PreferNoSchedule' }], remove: [] },
  },
  {
    description: 'B.3.2 prefixed key',
    specs: ['example.com/pool=a:NoSchedule'],
    expected: { add: [{ key: 'example.com/pool', value: 'a', effect: 'NoSchedule' }], remove: [] },
  },
  {
    description: 'B.8.14 key- removes every effect of the key',
    specs: ['legacy-'],
    expected: { add: [], remove: [{ key: 'legacy' }] },
  },
  {
    description: 'B.3.2 key:effect- removes one effect',
    specs: ['old:NoSchedule-'],
    expected: { add: [], remove: [{ key: 'old', effect: 'NoSchedule' }] },
  },
  {
    description: 'B.8.16 the value in a removal is ignored',
    specs: ['old=whatever:NoExecute-'],
    expected: { add: [], remove: [{ key: 'old', effect: 'NoExecute' }] },
  },
  {
    description: 'B.3.2 same key, different effects may both be added',
    specs: ['k=v:NoSchedule', 'k=v:NoExecute'],
    expected: {
      add: [
        { key: 'k', value: 'v', effect: 'NoSchedule' },
        { key: 'k', value: 'v', effect: 'NoExecute' },
      ],
      remove: [],
    },
  },
  {
    description: 'B.3.2 adding one effect and removing another of the same key is fine',
    specs: ['k:NoSchedule', 'k:NoExecute-'],
    expected: { add: [{ key: 'k', effect: 'NoSchedule' }], remove: [{ key: 'k', effect: 'NoExecute' }] },
  },
  {
    description: 'B.3.2 mixed adds and removals keep their order',
    specs: ['a:NoSchedule', 'b-', 'c=1:NoExecute', 'd:PreferNoSchedule-'],
    expected: {
      add: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'c', value: '1', effect: 'NoExecute' },
      ],
      remove: [{ key: 'b' }, { key: 'd', effect: 'PreferNoSchedule' }],
    },
  },
  { description: 'B.3.2 no specs: nothing to do', specs: [], expected: { add: [], remove: [] } },
];

describe('parseTaintSpecs (SEMANTICS B.3.2)', () => {
  it.each(okCases)('$description', ({ specs, expected }) => {
    expect(parseTaintSpecs(specs)).toEqual(expected);
  });
});

const errorCases: Array<{ description: string; specs: string[]; code: string; message: string }> = [
  {
    description: 'B.3.2 addition without effect: invalid taint spec',
    specs: ['maintenance'],
    code: 'InvalidSpec',
    message: 'invalid taint spec: maintenance',
  },
  {
    description: 'B.3.2 foo=bar without effect: the whole string is the key',
    specs: ['foo=bar'],
    code: 'InvalidSpec',
    message: `invalid taint spec: foo=bar, ${NAME_REGEX}`,
  },
  {
    description: 'B.3.2 unknown effect',
    specs: ['foo=bar:NoExcute'],
    code: 'InvalidSpec',
    message: 'invalid taint effect: NoExcute, unsupported taint effect',
  },
  {
    description: 'B.3.2 empty effect (foo:)',
    specs: ['foo:'],
    code: 'InvalidSpec',
    message: 'invalid taint effect: , unsupported taint effect',
  },
  {
    description: 'B.3.2 effects are case-sensitive',
    specs: ['foo:noschedule'],
    code: 'InvalidSpec',
    message: 'invalid taint effect: noschedule, unsupported taint effect',
  },
  {
    description: 'B.3.2 effect is checked before the key',
    specs: ['bad key:Nope'],
    code: 'InvalidSpec',
    message: 'invalid taint effect: Nope, unsupported taint effect',
  },
  {
    description: 'B.3.2 three parts',
    specs: ['key=value:NoSchedule:NoSchedule'],
    code: 'InvalidSpec',
    message: 'invalid taint spec: key=value:NoSchedule:NoSchedule',
  },
  {
    description: 'B.3.2 two "="',
    specs: ['key=value=value:NoSchedule'],
    code: 'InvalidSpec',
    message: 'invalid taint spec: key=value=value:NoSchedule',
  },
  {
    description: 'B.3.2 empty key',
    specs: ['=value:NoSchedule'],
    code: 'InvalidSpec',
    message: `invalid taint spec: =value:NoSchedule, name part must be non-empty; ${NAME_REGEX}`,
  },
  {
    description: 'B.3.2 invalid key',
    specs: ['@=value:NoSchedule'],
    code: 'InvalidSpec',
    message: `invalid taint spec: @=value:NoSchedule, ${NAME_REGEX}`,
  },
  {
    description: 'B.3.2 invalid value',
    specs: ['key=@:NoSchedule'],
    code: 'InvalidSpec',
    message: `invalid taint spec: key=@:NoSchedule, ${LABEL_VALUE_REGEX}`,
  },
  {
    description: 'B.3.2 too long value',
    specs: [`key=${'v'.repeat(64)}:NoSchedule`],
    code: 'InvalidSpec',
    message: `invalid taint spec: key=${'v'.repeat(64)}:NoSchedule, must be no more than 63 bytes`,
  },
  {
    description: 'B.3.2 removal value is still validated',
    specs: ['key=@:NoSchedule-'],
    code: 'InvalidSpec',
    message: `invalid taint spec: key=@:NoSchedule, ${LABEL_VALUE_REGEX}`,
  },
  {
    description: 'B.3.2 removal with an empty effect',
    specs: ['foo:-'],
    code: 'InvalidSpec',
    message: 'invalid taint effect: , unsupported taint effect',
  },
  {
    description: 'B.3.2 removal spec "foo=bar-": key foo=bar is invalid',
    specs: ['foo=bar-'],
    code: 'InvalidSpec',
    message: `invalid taint spec: foo=bar, ${NAME_REGEX}`,
  },
  {
    description: 'B.3.2 only one "-" is stripped: key "a-" is invalid',
    specs: ['a--'],
    code: 'InvalidSpec',
    message: `invalid taint spec: a-, ${NAME_REGEX}`,
  },
  {
    description: 'B.3.2 duplicate (key, effect) additions',
    specs: ['key=value:NoSchedule', 'key=other:NoSchedule'],
    code: 'InvalidSpec',
    message: 'duplicated taints with the same key and effect: {key other NoSchedule <nil>}',
  },
  {
    description: 'B.3.2 duplicate without value prints two spaces',
    specs: ['key:NoExecute', 'key:NoExecute'],
    code: 'InvalidSpec',
    message: 'duplicated taints with the same key and effect: {key  NoExecute <nil>}',
  },
  {
    description: 'B.3.2 add and remove the same taint',
    specs: ['k=v:NoSchedule', 'k:NoSchedule-'],
    code: 'AddAndRemove',
    message: 'can not both modify and remove the following taint(s) in the same command: k=NoSchedule',
  },
  {
    description: 'B.3.2 add and remove-all of the key prints key=',
    specs: ['k=v:NoSchedule', 'k-'],
    code: 'AddAndRemove',
    message: 'can not both modify and remove the following taint(s) in the same command: k=',
  },
  {
    description: 'B.3.2 several conflicts joined by ", "',
    specs: ['a:NoSchedule', 'b:NoExecute', 'a-', 'b:NoExecute-'],
    code: 'AddAndRemove',
    message: 'can not both modify and remove the following taint(s) in the same command: a=, b=NoExecute',
  },
  {
    description: 'B.3.2 the first bad spec wins',
    specs: ['ok:NoSchedule', 'bad', 'x:Nope'],
    code: 'InvalidSpec',
    message: 'invalid taint spec: bad',
  },
];

describe('parseTaintSpecs errors (SEMANTICS B.3.2)', () => {
  it.each(errorCases)('$description', ({ specs, code, message }) => {
    let thrown: unknown;
    try {
      parseTaintSpecs(specs);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(KubectlTaintError);
    expect(thrown).toMatchObject({ code, message, name: 'KubectlTaintError' });
  });
});

const qualifiedName = fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/);
const prefix = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?){0,3}$/);
const taintKey = fc.oneof(
  qualifiedName,
  fc.tuple(prefix, qualifiedName).map(([p, n]) => `${p}/${n}`),
);
const labelValue = fc.oneof(fc.constant(''), qualifiedName);
const validTaint = fc.record({ key: taintKey, value: labelValue, effect: fc.constantFrom(...TAINT_EFFECTS) });

describe('printTaintSpec (SEMANTICS B.3.2 round trip)', () => {
  it('B.3.2 property: a taint spec that parses re-prints to the same taint', () => {
    fc.assert(
      fc.property(validTaint, (taint) => {
        const { add } = parseTaintSpecs([printTaintSpec(taint)]);
        expect(add).toHaveLength(1);
        expect({ ...add[0], value: add[0].value ?? '' }).toEqual(taint);
        expect(printTaintSpec(add[0])).toBe(printTaintSpec(taint));
      }),
    );
  });

  it('B.3.2 property: any spec that parses as an addition prints back to an equivalent spec', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (spec) => {
        let add: Taint[];
        try {
          ({ add } = parseTaintSpecs([spec]));
        } catch (error) {
          expect(error).toBeInstanceOf(KubectlTaintError);
          return;
        }
        for (const taint of add) expect(parseTaintSpecs([printTaintSpec(taint)]).add).toEqual([taint]);
      }),
    );
  });

  const printCases = [
    {
      description: 'B.3.2 prints key=value:effect',
      taint: { key: 'k', value: 'v', effect: 'NoSchedule' as const },
      expected: 'k=v:NoSchedule',
    },
    {
      description: 'B.3.2 prints key:effect without a value',
      taint: { key: 'k', effect: 'NoExecute' as const },
      expected: 'k:NoExecute',
    },
  ];
  it.each(printCases)('$description', ({ taint, expected }) => {
    expect(printTaintSpec(taint)).toBe(expected);
  });

  it('B.3.2 removal specs round-trip', () => {
    for (const removal of [{ key: 'k' }, { key: 'k', effect: 'NoSchedule' as const }]) {
      expect(parseTaintSpecs([printTaintRemovalSpec(removal)]).remove).toEqual([removal]);
    }
  });
});
