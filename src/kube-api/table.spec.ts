import { humanDuration } from './human-duration';
import type { KubeNode } from './node-object';
import { nodeRolesCell, nodeStatusCell, wantsTable } from './table';

// apimachinery pkg/util/duration HumanDuration, the AGE column.
describe('humanDuration', () => {
  it.each([
    [-5000, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [119_000, '119s'],
    [120_000, '2m'],
    [150_000, '2m30s'],
    [600_000, '10m'],
    [3 * 3600_000, '3h'],
    [3 * 3600_000 + 60_000, '3h1m'],
    [8 * 3600_000, '8h'],
    [48 * 3600_000, '2d'],
    [50 * 3600_000, '2d2h'],
    [8 * 24 * 3600_000, '8d'],
    [2 * 365 * 24 * 3600_000, '2y'],
    [(2 * 365 + 3) * 24 * 3600_000, '2y3d'],
    [9 * 365 * 24 * 3600_000, '9y'],
  ])('%d ms is %s', (ms, expected) => {
    expect(humanDuration(ms)).toBe(expected);
  });
});

const node = (
  labels: Record<string, string>,
  conditions: Array<{ type: string; status: string }>,
  unschedulable = false,
) =>
  ({
    metadata: { labels },
    spec: unschedulable ? { unschedulable } : {},
    status: { conditions },
  }) as unknown as KubeNode;

// kubernetes pkg/printers/internalversion/printers.go printNode and findNodeRoles.
describe('node table cells', () => {
  it.each([
    [[{ type: 'Ready', status: 'True' }], false, 'Ready'],
    [[{ type: 'Ready', status: 'False' }], false, 'NotReady'],
    [[{ type: 'Ready', status: 'Unknown' }], false, 'NotReady'],
    [[], false, 'Unknown'],
    [[{ type: 'Ready', status: 'True' }], true, 'Ready,SchedulingDisabled'],
  ])('STATUS of %j (unschedulable %s) is %s', (conditions, unschedulable, expected) => {
    expect(nodeStatusCell(node({}, conditions, unschedulable))).toBe(expected);
  });

  it.each([
    [{}, '<none>'],
    [{ 'node-role.kubernetes.io/control-plane': '' }, 'control-plane'],
    [{ 'node-role.kubernetes.io/worker': 'x', 'kubernetes.io/role': 'gpu' }, 'gpu,worker'],
    [{ 'node-role.kubernetes.io/': '' }, '<none>'],
  ])('ROLES of %j is %s', (labels, expected) => {
    expect(nodeRolesCell(node(labels, []))).toBe(expected);
  });

  it.each([
    [
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      true,
    ],
    ['application/json', false],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', false],
  ])('Accept %s asks for a Table: %s', (accept, expected) => {
    expect(wantsTable(accept)).toBe(expected);
  });
});
