import type { Taint, Toleration } from '../types';
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  findUntoleratedTaints,
  type TaintInclusionFilter,
} from './find-matching-untolerated-taint';

const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const prefer: Taint = { key: 'spot', value: 'true', effect: 'PreferNoSchedule' };
const maintenance: Taint = { key: 'maintenance', effect: 'NoExecute' };
const sla: Taint = { key: 'sla', value: '950', effect: 'NoSchedule' };

const cases: Array<{
  description: string;
  taints: Taint[];
  tolerations: Toleration[];
  filter?: TaintInclusionFilter | null;
  gate?: boolean;
  expected: Taint | undefined;
  all: Taint[];
}> = [
  { description: 'B.1.5 no taints: tolerated', taints: [], tolerations: [], expected: undefined, all: [] },
  {
    description: 'B.1.5 first untolerated in node order',
    taints: [prefer, gpu, maintenance],
    tolerations: [],
    expected: prefer,
    all: [prefer, gpu, maintenance],
  },
  {
    description: 'B.1.5 tolerated taints are skipped',
    taints: [gpu, maintenance],
    tolerations: [{ key: 'dedicated', operator: 'Exists' }],
    expected: maintenance,
    all: [maintenance],
  },
  {
    description: 'B.1.5 everything tolerated',
    taints: [gpu, maintenance],
    tolerations: [{ operator: 'Exists' }],
    expected: undefined,
    all: [],
  },
  {
    description: 'B.1.5 null filter keeps all taints',
    taints: [prefer],
    tolerations: [],
    filter: null,
    expected: prefer,
    all: [prefer],
  },
  {
    description: 'B.4.1 scheduler filter ignores PreferNoSchedule',
    taints: [prefer, gpu],
    tolerations: [],
    filter: doNotScheduleTaintsFilter,
    expected: gpu,
    all: [gpu],
  },
  {
    description: 'B.4.1 scheduler filter keeps NoExecute',
    taints: [prefer, maintenance],
    tolerations: [],
    filter: doNotScheduleTaintsFilter,
    expected: maintenance,
    all: [maintenance],
  },
  {
    description: 'B.4.1 only PreferNoSchedule untolerated: passes the filter',
    taints: [prefer],
    tolerations: [],
    filter: doNotScheduleTaintsFilter,
    expected: undefined,
    all: [],
  },
  {
    description: 'B.8.4 gate off: a Gt toleration leaves the taint untolerated',
    taints: [sla],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }],
    gate: false,
    expected: sla,
    all: [sla],
  },
  {
    description: 'B.8.1 gate on: Gt tolerates a larger taint value',
    taints: [sla],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }],
    gate: true,
    expected: undefined,
    all: [],
  },
];

describe('findMatchingUntoleratedTaint (SEMANTICS B.1.5)', () => {
  it.each(cases)('$description', ({ taints, tolerations, filter, gate, expected, all }) => {
    const options = { comparisonOperators: gate ?? true };
    expect(findMatchingUntoleratedTaint(taints, tolerations, filter, options)).toBe(expected);
    expect(findUntoleratedTaints(taints, tolerations, filter, options)).toEqual(all);
  });

  it('B.1.5 defaults: no filter, comparison operators on', () => {
    expect(findMatchingUntoleratedTaint([sla], [{ key: 'sla', operator: 'Gt', value: '900' }])).toBeUndefined();
    expect(findUntoleratedTaints([sla], [])).toEqual([sla]);
  });
});
