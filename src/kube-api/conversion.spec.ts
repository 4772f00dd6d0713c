import type { StoredNode, StoredPod } from '../kernel/model/stored-objects';
import { AppError } from '../kernel/errors/app-error';
import { kubeStatusFor } from '../kernel/http/kube-status';
import { toKubeEvent } from './event-object';
import { asKubeNodeError, kubeFieldPath, nodeWriteBody } from './node-body';
import { toKubeNode } from './node-object';
import { podWriteBody } from './pod-body';
import { toKubePod } from './pod-object';
import { checkFieldValidation } from './field-validation';
import { kubeLimit } from './list-limit';
import { wantsAggregated } from './discovery-documents';

const at = new Date('2026-01-02T03:04:05.678Z');
const node: StoredNode = {
  name: 'n1',
  labels: { zone: 'a' },
  taints: [{ key: 'k', value: '', effect: 'NoExecute', timeAdded: at }],
  unschedulable: true,
  conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }],
  allocatable: { cpu: '4' },
  resourceVersion: '7',
  createdAt: at,
  updatedAt: at,
};
const pod: StoredPod = {
  namespace: 'shop',
  name: 'web',
  uid: 'u-1',
  labels: {},
  nodeName: null,
  phase: 'Evicted',
  boundAt: null,
  tolerations: [],
  nodeSelector: {},
  affinity: null,
  priority: 0,
  owner: { kind: 'ReplicaSet', name: 'web-abc' },
  resources: { requests: { cpu: '100m' } },
  requests: { cpu: 100 },
  hostNetwork: false,
  resourceVersion: '3',
  createdAt: at,
  updatedAt: at,
};

describe('taintwise objects as core/v1 JSON', () => {
  it('a node: metadata, spec.taints (no empty value), spec.unschedulable, status', () => {
    const k = toKubeNode(node);
    expect(k).toMatchObject({
      kind: 'Node',
      apiVersion: 'v1',
      metadata: { name: 'n1', resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z', labels: { zone: 'a' } },
      spec: { taints: [{ key: 'k', effect: 'NoExecute', timeAdded: '2026-01-02T03:04:05Z' }], unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], allocatable: { cpu: '4' }, capacity: { cpu: '4' } },
    });
    expect(k.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(toKubeNode({ ...node, createdAt: new Date(0) }).metadata.uid).not.toBe(k.metadata.uid);
  });

  it('an evicted pod is Failed/Evicted with the taint manager DisruptionTarget condition', () => {
    const k = toKubePod(pod);
    expect(k.status).toMatchObject({
      phase: 'Failed',
      reason: 'Evicted',
      conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }],
    });
    expect(k.metadata.ownerReferences).toEqual([
      expect.objectContaining({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', controller: true }),
    ]);
    expect(k.spec.nodeName).toBeUndefined();
  });

  it.each([
    ['EvictionExecuted', 'TaintManagerEviction', 'Marking for deletion Pod shop/web'],
    ['EvictionCancelled', 'TaintManagerEviction', 'Cancelling deletion of Pod shop/web'],
  ])('event %s is reason %s: %s', (type, reason, message) => {
    const e = toKubeEvent({
      id: '9',
      type,
      actor: 'a',
      requestId: null,
      subjectKind: 'Pod',
      subjectName: 'shop/web',
      data: {},
      createdAt: at.toISOString(),
    });
    expect(e).toMatchObject({
      reason,
      message,
      metadata: { namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'shop' },
    });
  });
});

describe('core/v1 bodies as taintwise writes', () => {
  it('a Node body keeps what taintwise models', () => {
    expect(
      nodeWriteBody(
        {
          kind: 'Node',
          metadata: { name: 'n1', labels: { a: 'b' }, annotations: { x: 'y' }, resourceVersion: '4' },
          spec: { taints: [{ key: 'k', effect: 'NoSchedule' }], podCIDR: '10.0.0.0/24' },
          status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: 'x' }] },
        },
        'n1',
      ),
    ).toEqual({
      labels: { a: 'b' },
      resourceVersion: '4',
      taints: [{ key: 'k', effect: 'NoSchedule' }],
      conditions: [{ type: 'Ready', status: 'True' }],
    });
  });

  it.each([
    ['taints[0].effect', 'spec.taints[0].effect'],
    ['labels', 'metadata.labels'],
    ['conditions[1].status', 'status.conditions[1].status'],
    ['unknown', 'unknown'],
  ])('field path %s is %s', (from, to) => expect(kubeFieldPath(from)).toBe(to));

  it('an Invalid node error becomes the API server message and Status causes', () => {
    const error = asKubeNodeError(
      new AppError('Invalid', 'x', [
        {
          field: 'taints[0].effect',
          type: 'Unsupported value',
          message: 'Unsupported value: "X": supported values: "NoSchedule"',
        },
      ]),
      'n1',
    ) as AppError;
    expect(error.message).toBe(
      'Node "n1" is invalid: spec.taints[0].effect: Unsupported value: "X": supported values: "NoSchedule"',
    );
    expect(kubeStatusFor(error)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: error.message,
      reason: 'Invalid',
      details: {
        name: 'n1',
        group: '',
        kind: 'Node',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "X": supported values: "NoSchedule"',
            field: 'spec.taints[0].effect',
          },
        ],
      },
      code: 422,
    });
  });

  it('a one-container Pod keeps its resources; several are summed as the scheduler charges them', () => {
    const one = podWriteBody(
      { spec: { containers: [{ name: 'a', resources: { requests: { memory: '64Mi' } } }] } },
      'ns',
      'p',
    );
    expect(one.resources).toEqual({ requests: { memory: '64Mi' } });
    const two = podWriteBody(
      {
        spec: {
          containers: [
            { name: 'a', resources: { requests: { cpu: '100m' } } },
            { name: 'b', resources: { limits: { cpu: '1' } } },
          ],
        },
      },
      'ns',
      'p',
    );
    expect(two.resources).toEqual({ requests: { cpu: '1100m' } });
  });
});

describe('request parameters', () => {
  it.each([
    [undefined, undefined],
    ['0', undefined],
    ['-3', undefined],
    ['500', 500],
    ['999999', 5000],
  ])('limit %s is %s', (raw, expected) => expect(kubeLimit(raw)).toBe(expected));

  it('a limit that is not an integer is a 400', () => expect(() => kubeLimit('1.5')).toThrow(AppError));

  it.each([
    ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', true],
    ['application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', false],
    ['application/json', false],
  ])('Accept %s wants aggregated discovery: %s', (accept, expected) => expect(wantsAggregated(accept)).toBe(expected));

  it.each([
    ['Strict', { spec: { containers: [], tolerashuns: [] } }, 'unknown field "spec.tolerashuns"'],
    ['Strict', { metadata: { name: 'p', nmae: 'x' } }, 'unknown field "metadata.nmae"'],
    [
      'Strict',
      { spec: { containers: [{ name: 'a', resources: { request: {} } }] } },
      'unknown field "spec.containers[0].resources.request"',
    ],
  ])('fieldValidation=%s refuses %j', (directive, object, message) => {
    expect(() => checkFieldValidation(directive, 'Pod', object)).toThrow(message);
  });

  it.each([['Ignore'], ['Warn'], [undefined]])('fieldValidation=%s accepts unknown fields', (directive) => {
    expect(() => checkFieldValidation(directive, 'Pod', { spec: { x: 1 } })).not.toThrow();
  });
});
