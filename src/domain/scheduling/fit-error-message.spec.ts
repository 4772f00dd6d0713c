import { fitErrorMessage } from './fit-error-message';

const cases: Array<{
  description: string;
  feasible: number;
  total: number;
  reasons: Array<[string, number]>;
  expected: string;
}> = [
  {
    description: 'B.4.3 FitError format: counts, sorted, joined, final dot',
    feasible: 0,
    total: 5,
    reasons: [
      ['node(s) had untolerated taint {a: b}', 4],
      ['node(s) were unschedulable', 1],
    ],
    expected: '0/5 nodes are available: 1 node(s) were unschedulable, 4 node(s) had untolerated taint {a: b}.',
  },
  {
    description: 'B.4.3 sorted lexicographically as strings: "10 …" before "2 …"',
    feasible: 0,
    total: 12,
    reasons: [
      ['node(s) were unschedulable', 2],
      ['node(s) had untolerated taint(s)', 10],
    ],
    expected: '0/12 nodes are available: 10 node(s) had untolerated taint(s), 2 node(s) were unschedulable.',
  },
  {
    description: 'B.4.3 same count: sorted by the reason text',
    feasible: 0,
    total: 2,
    reasons: [
      ['node(s) were unschedulable', 1],
      ["node(s) didn't match Pod's node affinity/selector", 1],
    ],
    expected:
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable.",
  },
  {
    description: 'A.2 generalised: some nodes feasible',
    feasible: 3,
    total: 5,
    reasons: [['node(s) had untolerated taint {dedicated: gpu}', 2]],
    expected: '3/5 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}.',
  },
  {
    description: 'B.4.3 resources: one node can count under several reasons',
    feasible: 0,
    total: 3,
    reasons: [
      ['Insufficient memory', 3],
      ['Insufficient cpu', 3],
    ],
    expected: '0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.',
  },
  {
    description: 'A.2 every node feasible: no reason list',
    feasible: 4,
    total: 4,
    reasons: [],
    expected: '4/4 nodes are available.',
  },
  { description: 'A.2 no nodes at all', feasible: 0, total: 0, reasons: [], expected: '0/0 nodes are available.' },
];

describe('fitErrorMessage (SEMANTICS B.4.3, A.2)', () => {
  it.each(cases)('$description', ({ feasible, total, reasons, expected }) => {
    expect(fitErrorMessage(feasible, total, new Map(reasons))).toBe(expected);
  });
});
