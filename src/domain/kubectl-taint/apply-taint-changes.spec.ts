import fc from 'fast-check';
import { TAINT_EFFECTS, type Taint } from '../types';
import { applyTaintChanges, type TaintOperation } from './apply-taint-changes';
import { KubectlTaintError } from './kubectl-taint-error';
import type { TaintChanges, TaintRemoval } from './parse-taint-specs';

const before = new Date('2025-01-01T00:00:00Z');
const now = new Date('2025-06-01T12:00:00Z');
const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: before };
const maint: Taint = { key: 'maintenance', effect: 'NoExecute', timeAdded: before };
const maintPrefer: Taint = { key: 'maintenance', effect: 'PreferNoSchedule', timeAdded: before };
const legacy: Taint = { key: 'legacy', value: 'x', effect: 'NoSchedule' };

const cases: Array<{
  description: string;
  current: Taint[];
  changes: TaintChanges;
  overwrite?: boolean;
  expected: Taint[];
  changed: boolean;
  operation: TaintOperation;
}> = [
  {
    description: 'B.3.3 adding to an empty node: tainted, timeAdded = now',
    current: [],
    changes: { add: [{ key: 'k', value: 'v', effect: 'NoSchedule' }], remove: [] },
    expected: [{ key: 'k', value: 'v', effect: 'NoSchedule', timeAdded: now }],
    changed: true,
    operation: 'tainted',
  },
  {
    description: 'B.8.16 new taints are ordered first',
    current: [gpu],
    changes: { add: [{ key: 'k', effect: 'NoExecute' }], remove: [] },
    expected: [{ key: 'k', effect: 'NoExecute', timeAdded: now }, gpu],
    changed: true,
    operation: 'tainted',
  },
  {
    description: 'B.3.3 removal by key and effect: untainted',
    current: [gpu, maint],
    changes: { add: [], remove: [{ key: 'maintenance', effect: 'NoExecute' }] },
    expected: [gpu],
    changed: true,
    operation: 'untainted',
  },
  {
    description: 'B.8.14 removal by key removes every effect',
    current: [maint, gpu, maintPrefer],
    changes: { add: [], remove: [{ key: 'maintenance' }] },
    expected: [gpu],
    changed: true,
    operation: 'untainted',
  },
  {
    description: 'B.3.3 add and remove: modified',
    current: [legacy],
    changes: { add: [{ key: 'k', effect: 'NoSchedule' }], remove: [{ key: 'legacy' }] },
    expected: [{ key: 'k', effect: 'NoSchedule', timeAdded: now }],
    changed: true,
    operation: 'modified',
  },
  {
    description: 'B.3.3 overwrite with a new value: modified, clock restarts',
    current: [gpu, maint],
    changes: { add: [{ key: 'dedicated', value: 'tpu', effect: 'NoSchedule' }], remove: [] },
    overwrite: true,
    expected: [{ key: 'dedicated', value: 'tpu', effect: 'NoSchedule', timeAdded: now }, maint],
    changed: true,
    operation: 'modified',
  },
  {
    description: 'A.3 overwrite with the same value keeps timeAdded: nothing changed',
    current: [maint, gpu],
    changes: { add: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], remove: [] },
    overwrite: true,
    expected: [maint, gpu],
    changed: false,
    operation: 'modified',
  },
  {
    description: 'A.3 overwrite of a taint without timeAdded keeps it without',
    current: [legacy],
    changes: { add: [{ key: 'legacy', value: 'x', effect: 'NoSchedule' }], remove: [] },
    overwrite: true,
    expected: [legacy],
    changed: false,
    operation: 'modified',
  },
  {
    description: 'B.3.3 overwrite with a new taint: modified (overwrite decides)',
    current: [],
    changes: { add: [{ key: 'k', effect: 'NoSchedule' }], remove: [] },
    overwrite: true,
    expected: [{ key: 'k', effect: 'NoSchedule', timeAdded: now }],
    changed: true,
    operation: 'modified',
  },
  {
    description: 'B.3.3 overwrite and remove in one command',
    current: [gpu, legacy],
    changes: {
      add: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      remove: [{ key: 'legacy', effect: 'NoSchedule' }],
    },
    overwrite: true,
    expected: [gpu],
    changed: true,
    operation: 'modified',
  },
  {
    description: 'B.3.3 value "" and absent are the same when overwriting',
    current: [maint],
    changes: { add: [{ key: 'maintenance', value: '', effect: 'NoExecute' }], remove: [] },
    overwrite: true,
    expected: [maint],
    changed: false,
    operation: 'modified',
  },
  {
    description: 'B.8.16/A.3 overwrite re-adding a value-less taint keeps its timeAdded',
    current: [maint, gpu],
    changes: { add: [{ key: 'maintenance', effect: 'NoExecute' }], remove: [] },
    overwrite: true,
    expected: [maint, gpu],
    changed: false,
    operation: 'modified',
  },
  {
    description: 'B.8.16 overwrite giving a value-less taint a value restarts its clock',
    current: [maint],
    changes: { add: [{ key: 'maintenance', value: 'v2', effect: 'NoExecute' }], remove: [] },
    overwrite: true,
    expected: [{ key: 'maintenance', value: 'v2', effect: 'NoExecute', timeAdded: now }],
    changed: true,
    operation: 'modified',
  },
  {
    description: 'B.3.3 nothing to do on an empty command',
    current: [gpu],
    changes: { add: [], remove: [] },
    expected: [gpu],
    changed: false,
    operation: 'untainted',
  },
];

describe('applyTaintChanges (SEMANTICS B.3.3)', () => {
  it.each(cases)('$description', ({ current, changes, overwrite, expected, changed, operation }) => {
    const snapshot = JSON.stringify(current);
    const result = applyTaintChanges('n1', current, changes, { overwrite: overwrite ?? false, now });
    expect(result).toEqual({ taints: expected, changed, operation });
    expect(JSON.stringify(current)).toBe(snapshot);
  });
});

const errorCases: Array<{
  description: string;
  current: Taint[];
  changes: TaintChanges;
  overwrite?: boolean;
  code: string;
  message: string;
}> = [
  {
    description: 'B.8.16 existing (key, effect) without overwrite, even with the same value',
    current: [gpu],
    changes: { add: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], remove: [] },
    code: 'AlreadyExists',
    message: 'node n1 already has dedicated taint(s) with same effect(s) and --overwrite is false',
  },
  {
    description: 'B.3.3 several existing keys are joined by ","',
    current: [gpu, maint],
    changes: {
      add: [
        { key: 'maintenance', effect: 'NoExecute' },
        { key: 'new', effect: 'NoSchedule' },
        { key: 'dedicated', effect: 'NoSchedule' },
      ],
      remove: [],
    },
    code: 'AlreadyExists',
    message: 'node n1 already has maintenance,dedicated taint(s) with same effect(s) and --overwrite is false',
  },
  {
    description: 'B.3.3 removing a missing taint: not found (key:Effect)',
    current: [gpu],
    changes: { add: [], remove: [{ key: 'dedicated', effect: 'NoExecute' }] },
    code: 'NotFound',
    message: 'taint "dedicated:NoExecute" not found',
  },
  {
    description: 'B.3.3 removing a missing key',
    current: [gpu],
    changes: { add: [], remove: [{ key: 'gone' }] },
    code: 'NotFound',
    message: 'taint "gone" not found',
  },
  {
    description: 'B.3.3 not-found errors are aggregated',
    current: [gpu],
    changes: {
      add: [{ key: 'x', effect: 'NoSchedule' }],
      remove: [{ key: 'a' }, { key: 'dedicated' }, { key: 'b', effect: 'NoSchedule' }],
    },
    code: 'NotFound',
    message: '[taint "a" not found, taint "b:NoSchedule" not found]',
  },
  {
    description: 'B.3.3 the same removal twice: the second finds nothing',
    current: [gpu],
    changes: { add: [], remove: [{ key: 'dedicated' }, { key: 'dedicated' }] },
    code: 'NotFound',
    message: 'taint "dedicated" not found',
  },
  {
    description: 'B.3.3 without overwrite, AlreadyExists is checked before removals',
    current: [gpu],
    changes: { add: [{ key: 'dedicated', effect: 'NoSchedule' }], remove: [{ key: 'gone' }] },
    code: 'AlreadyExists',
    message: 'node n1 already has dedicated taint(s) with same effect(s) and --overwrite is false',
  },
];

describe('applyTaintChanges errors (SEMANTICS B.3.3)', () => {
  it.each(errorCases)('$description', ({ current, changes, overwrite, code, message }) => {
    let thrown: unknown;
    try {
      applyTaintChanges('n1', current, changes, { overwrite: overwrite ?? false, now });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(KubectlTaintError);
    expect(thrown).toMatchObject({ code, message, node: 'n1' });
  });
});

describe('applyTaintChanges properties', () => {
  const key = fc.constantFrom('a', 'b', 'c', 'example.com/d');
  const effect = fc.constantFrom(...TAINT_EFFECTS);
  const taint = fc.record({ key, value: fc.constantFrom('', 'x', 'y'), effect });
  const uniqueTaints = fc.uniqueArray(taint, { selector: (t) => `${t.key}:${t.effect}`, maxLength: 8 });
  const removal: fc.Arbitrary<TaintRemoval> = fc.oneof(fc.record({ key }), fc.record({ key, effect }));

  it('B.3.3 property: applyTaintChanges never leaves duplicate (key,effect)', () => {
    fc.assert(
      fc.property(
        uniqueTaints,
        uniqueTaints,
        fc.array(removal, { maxLength: 3 }),
        fc.boolean(),
        (current, add, remove, overwrite) => {
          try {
            const { taints } = applyTaintChanges('n', current, { add, remove }, { overwrite, now });
            const identities = taints.map((t) => `${t.key}:${t.effect}`);
            expect(new Set(identities).size).toBe(identities.length);
            for (const t of add) {
              if (!remove.some((r) => r.key === t.key && (r.effect === undefined || r.effect === t.effect))) {
                expect(
                  taints.some((n) => n.key === t.key && n.effect === t.effect && (n.value ?? '') === t.value),
                ).toBe(true);
              }
            }
          } catch (error) {
            expect(error).toBeInstanceOf(KubectlTaintError);
          }
        },
      ),
    );
  });

  it('A.3 property: an untouched taint keeps its timeAdded', () => {
    fc.assert(
      fc.property(uniqueTaints, uniqueTaints, (current, add) => {
        const stamped = current.map((t) => ({ ...t, timeAdded: before }));
        const { taints } = applyTaintChanges('n', stamped, { add, remove: [] }, { overwrite: true, now });
        for (const t of taints) {
          const old = stamped.find((o) => o.key === t.key && o.effect === t.effect);
          const expected = old && old.value === (t.value ?? '') ? before : now;
          expect(t.timeAdded).toEqual(expected);
        }
      }),
    );
  });
});
