import { AppError } from '../kernel/errors/app-error';
import { nextConditions, nodeSelectionOf, validateConditions } from './taint-inputs';

describe('nodeSelectionOf (SEMANTICS B.3.1: one way to pick nodes, at least one change)', () => {
  it.each([
    {
      description: 'explicit names, deduplicated and sorted (lock order)',
      body: { nodes: ['b', 'a', 'b'], taints: ['k:NoSchedule'] },
      expected: { kind: 'names', names: ['a', 'b'] },
    },
    {
      description: 'a label selector',
      body: { labelSelector: 'pool=gpu', taints: ['k-'] },
      expected: { kind: 'labelSelector', selector: 'pool=gpu' },
    },
    { description: 'all: true', body: { all: true, taints: ['k-'] }, expected: { kind: 'all' } },
  ])('$description', ({ body, expected }) => {
    expect(nodeSelectionOf(body)).toEqual(expected);
  });

  it.each([
    {
      description: 'nothing selected',
      body: { taints: ['k-'] },
      message: 'one or more nodes must be selected: give exactly one of "nodes", "labelSelector" or "all": true',
    },
    {
      description: 'all: false selects nothing',
      body: { all: false, taints: ['k-'] },
      message: 'one or more nodes must be selected: give exactly one of "nodes", "labelSelector" or "all": true',
    },
    {
      description: '--all and -l are exclusive',
      body: { all: true, labelSelector: 'a', taints: ['k-'] },
      message: 'give exactly one of "nodes", "labelSelector" or "all": true (got labelSelector, all)',
    },
    { description: 'no change', body: { nodes: ['a'], taints: [] }, message: 'at least one taint update is required' },
    {
      description: 'an empty node list',
      body: { nodes: [], taints: ['k-'] },
      message: 'one or more nodes must be specified',
    },
  ])('refuses $description with a 400', ({ body, message }) => {
    let thrown: unknown;
    try {
      nodeSelectionOf(body);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ kind: 'BadRequest', message });
  });
});

describe('validateConditions', () => {
  it('reports bad statuses, missing and repeated types in Kubernetes words', () => {
    expect(
      validateConditions([
        { type: 'Ready', status: 'Yes' },
        { type: '', status: 'True' },
        { type: 'Ready', status: 'True' },
      ]),
    ).toEqual([
      {
        field: 'conditions[0].status',
        type: 'Unsupported value',
        message: 'Unsupported value: "Yes": supported values: "False", "True", "Unknown"',
      },
      { field: 'conditions[1].type', type: 'Required value', message: 'Required value' },
      { field: 'conditions[2].type', type: 'Duplicate value', message: 'Duplicate value: "Ready"' },
    ]);
    expect(
      validateConditions([
        { type: 'Ready', status: 'Unknown' },
        { type: 'MemoryPressure', status: 'False' },
      ]),
    ).toEqual([]);
  });
});

describe('nextConditions (A.7: a condition keeps its transition time while its status holds)', () => {
  const before = new Date('2026-01-01T00:00:00Z');
  const now = new Date('2026-01-01T00:05:00Z');
  it.each([
    {
      description: 'same status keeps lastTransitionTime',
      previous: [{ type: 'Ready', status: 'False', lastTransitionTime: before }],
      reported: [{ type: 'Ready', status: 'False' }],
      at: before,
    },
    {
      description: 'a changed status is stamped now',
      previous: [{ type: 'Ready', status: 'True', lastTransitionTime: before }],
      reported: [{ type: 'Ready', status: 'False' }],
      at: now,
    },
    {
      description: 'a new condition is stamped now',
      previous: [],
      reported: [{ type: 'Ready', status: 'False' }],
      at: now,
    },
  ])('$description', ({ previous, reported, at }) => {
    expect(nextConditions(reported, previous, now)).toEqual([{ ...reported[0], lastTransitionTime: at }]);
  });
});
