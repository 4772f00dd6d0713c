import type { Affinity } from '../types';
import type { NodeObject, PodObject } from './validate-objects';
import {
  validateLabels,
  validateNodeAffinity,
  validateNodeObject,
  validateObjectName,
  validatePodSpecObject,
  validateNamespaceName,
  validateResourceList,
} from './validate-objects';

const options = { comparisonOperators: true };
const node = { name: 'n1', labels: {}, taints: [], conditions: [], allocatable: null };
const pod = { tolerations: [], nodeSelector: {}, affinity: null, resources: {} };

describe('validateNodeObject (B.2.2 and ValidateNode)', () => {
  it.each([
    { description: 'B.2.2 a valid node has no errors', input: node, fields: [] as string[] },
    {
      description: 'B.2.2 node name must be a DNS-1123 subdomain',
      input: { ...node, name: 'Node_1' },
      fields: ['name'],
    },
    { description: 'B.2.2 empty name is required', input: { ...node, name: '' }, fields: ['name'] },
    {
      description: 'B.2.2 label keys are qualified names',
      input: { ...node, labels: { 'bad key': 'x' } },
      fields: ['labels'],
    },
    {
      description: 'B.2.2 label values are label values',
      input: { ...node, labels: { k: '-bad-' } },
      fields: ['labels'],
    },
    {
      description: 'B.2.2 taint effect is checked with the taint rules',
      input: { ...node, taints: [{ key: 'a', value: 'b', effect: 'NoScheduled' as never }] },
      fields: ['taints[0].effect'],
    },
    {
      description: 'B.2.2 allocatable quantities must parse',
      input: { ...node, allocatable: { cpu: 'lots' } },
      fields: ['allocatable[cpu]'],
    },
    {
      description: 'B.2.2 negative allocatable is rejected',
      input: { ...node, allocatable: { memory: '-1Gi' } },
      fields: ['allocatable[memory]'],
    },
    {
      description: 'B.2.2 condition status must be True, False or Unknown',
      input: { ...node, conditions: [{ type: 'Ready', status: 'Yes' }] },
      fields: ['conditions[0].status'],
    },
    {
      description: 'B.2.2 condition type is required',
      input: { ...node, conditions: [{ type: '', status: 'True' }] },
      fields: ['conditions[0].type'],
    },
  ] as Array<{ description: string; input: NodeObject; fields: string[] }>)('$description', ({ input, fields }) => {
    expect(validateNodeObject(input).map((e) => e.field)).toEqual(fields);
  });

  it('words an unsupported condition status as Kubernetes does', () => {
    expect(validateNodeObject({ ...node, conditions: [{ type: 'Ready', status: 'Yes' }] })[0].message).toBe(
      'Unsupported value: "Yes": supported values: "True", "False", "Unknown"',
    );
  });
});

describe('validatePodSpecObject (B.2.1 and the scheduling part of ValidatePodSpec)', () => {
  const term = (expr: object) => ({
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr] }] },
    },
  });
  it.each([
    { description: 'B.2.1 a valid pod has no errors', input: pod, fields: [] as string[] },
    {
      description: 'B.2.1 empty key needs Exists',
      input: { ...pod, tolerations: [{ key: '', operator: 'Equal', value: 'x' }] },
      fields: ['tolerations[0].operator'],
    },
    {
      description: 'B.2.1 nodeSelector keys are label keys',
      input: { ...pod, nodeSelector: { 'a b': 'c' } },
      fields: ['nodeSelector'],
    },
    {
      description: 'In needs values',
      input: { ...pod, affinity: term({ key: 'zone', operator: 'In' }) },
      fields: [
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
      ],
    },
    {
      description: 'Exists takes no values',
      input: { ...pod, affinity: term({ key: 'zone', operator: 'Exists', values: ['a'] }) },
      fields: [
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
      ],
    },
    {
      description: 'Gt takes one value',
      input: { ...pod, affinity: term({ key: 'n', operator: 'Gt', values: ['1', '2'] }) },
      fields: [
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
      ],
    },
    {
      description: 'unknown selector operator',
      input: { ...pod, affinity: term({ key: 'n', operator: 'Near' }) },
      fields: [
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
      ],
    },
    {
      description: 'required affinity needs a term',
      input: {
        ...pod,
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
      },
      fields: ['affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms'],
    },
    {
      description: 'matchFields only on metadata.name with one value',
      input: {
        ...pod,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'spec.x', operator: 'Exists' }] }],
            },
          },
        },
      },
      fields: [
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key',
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].operator',
      ],
    },
    {
      description: 'matchFields In needs exactly one value',
      input: {
        ...pod,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [] }] }],
            },
          },
        },
      },
      fields: [
        'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values',
      ],
    },
    {
      description: 'preferred weight 1..100',
      input: {
        ...pod,
        affinity: {
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] },
        },
      },
      fields: ['affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight'],
    },
    {
      description: 'resource quantities must parse',
      input: { ...pod, resources: { requests: { cpu: 'x' }, limits: { 'example.com/dongle': '1' } } },
      fields: ['resources.requests[cpu]'],
    },
    {
      description: 'extended resource names are qualified names',
      input: { ...pod, resources: { requests: { 'bad name/x/y': '1' } } },
      fields: ['resources.requests[bad name/x/y]'],
    },
    { description: 'phase must be known', input: { ...pod, phase: 'Sleeping' }, fields: ['phase'] },
  ] as Array<{ description: string; input: PodObject; fields: string[] }>)('$description', ({ input, fields }) => {
    expect(validatePodSpecObject(input, options).map((e) => e.field)).toEqual(fields);
  });
});

describe('names', () => {
  it.each([
    { ns: 'default', ok: true },
    { ns: 'kube-system', ok: true },
    { ns: 'Bad', ok: false },
    { ns: '', ok: false },
    { ns: 'a'.repeat(64), ok: false },
  ])('namespace $ns valid=$ok', ({ ns, ok }) => {
    expect(validateNamespaceName(ns).length === 0).toBe(ok);
  });
  it('accepts hugepages and standard resources without a qualified-name check', () => {
    expect(validateResourceList({ 'hugepages-1Gi': '2Gi', cpu: '100m', 'ephemeral-storage': '1G' }, 'r')).toEqual([]);
  });
  // ValidateResourceQuantityValue: a quantity that parses but is below zero gets
  // ValidateNonnegativeQuantity's wording; one that does not parse gets the quantity regex.
  it.each([
    { value: '-1Gi', message: 'Invalid value: "-1Gi": must be greater than or equal to 0' },
    { value: '-500m', message: 'Invalid value: "-500m": must be greater than or equal to 0' },
    { value: '-0', message: undefined },
    { value: 'lots', message: 'Invalid value: "lots": must match the regular expression' },
  ])('resource quantity $value', ({ value, message }) => {
    const errors = validateResourceList({ memory: value }, 'r');
    if (message === undefined) expect(errors).toEqual([]);
    else
      expect(errors.map((e) => `${e.field}: ${e.message}`)).toEqual([expect.stringContaining(`r[memory]: ${message}`)]);
  });
});

describe('validateNodeAffinity: well-formed terms pass (ValidateNodeSelectorRequirement)', () => {
  const required = (expr: object) => ({
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr] }] },
    },
  });
  const fields = (r: object) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [r] }] } },
  });
  const preferred = (weight: number) => ({
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
      ],
    },
  });
  const at = 'affinity.nodeAffinity';
  it.each([
    { description: 'no affinity at all', affinity: null, expected: [] as string[] },
    { description: 'an affinity without nodeAffinity', affinity: {}, expected: [] },
    {
      description: 'In with values',
      affinity: required({ key: 'zone', operator: 'In', values: ['a', 'b'] }),
      expected: [],
    },
    {
      description: 'NotIn with values',
      affinity: required({ key: 'zone', operator: 'NotIn', values: ['c'] }),
      expected: [],
    },
    { description: 'Exists without values', affinity: required({ key: 'gpu', operator: 'Exists' }), expected: [] },
    {
      description: 'DoesNotExist with an empty list',
      affinity: required({ key: 'gpu', operator: 'DoesNotExist', values: [] }),
      expected: [],
    },
    {
      description: 'Gt with exactly one value',
      affinity: required({ key: 'cores', operator: 'Gt', values: ['8'] }),
      expected: [],
    },
    {
      description: 'Lt without values',
      affinity: required({ key: 'cores', operator: 'Lt' }),
      expected: [
        `${at}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values`,
      ],
    },
    {
      description: 'an invalid key is reported at .key',
      affinity: required({ key: 'bad key', operator: 'Exists' }),
      expected: [`${at}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key`],
    },
    {
      description: 'matchFields metadata.name In with one value',
      affinity: fields({ key: 'metadata.name', operator: 'In', values: ['n1'] }),
      expected: [],
    },
    {
      description: 'matchFields without values',
      affinity: fields({ key: 'metadata.name', operator: 'NotIn' }),
      expected: [`${at}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values`],
    },
    { description: 'preferred weight 1 is the lower bound', affinity: preferred(1), expected: [] },
    { description: 'preferred weight 100 is the upper bound', affinity: preferred(100), expected: [] },
    {
      description: 'preferred weight 101 is out of range',
      affinity: preferred(101),
      expected: [`${at}.preferredDuringSchedulingIgnoredDuringExecution[0].weight`],
    },
  ] as Array<{ description: string; affinity: Affinity | null; expected: string[] }>)(
    '$description',
    ({ affinity, expected }) => {
      expect(validateNodeAffinity(affinity, at).map((e) => e.field)).toEqual(expected);
    },
  );
});

describe('object names and labels (ValidateNodeName, ValidateLabels)', () => {
  it.each([
    { description: 'B.2.2 a DNS-1123 subdomain node name', name: 'gke-prod-1.example', expected: [] as string[] },
    {
      description: 'B.2.2 an empty name is required',
      name: '',
      expected: ['Required value: name or generateName is required'],
    },
    {
      description: 'B.2.2 upper case is not a DNS-1123 subdomain',
      name: 'Node1',
      expected: [
        "Invalid value: \"Node1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    },
  ])('$description', ({ name, expected }) => {
    expect(validateObjectName(name).map((e) => e.message)).toEqual(expected);
  });

  it.each([
    {
      description: 'B.2.2 valid labels',
      labels: { 'topology.kubernetes.io/zone': 'a', empty: '' },
      expected: [] as string[],
    },
    {
      description: 'B.2.2 a bad key and a bad value are both reported at the path',
      labels: { 'a b': 'ok', k: 'bad value' },
      expected: ['labels', 'labels'],
    },
  ] as Array<{ description: string; labels: Record<string, string>; expected: string[] }>)(
    '$description',
    ({ labels, expected }) => {
      expect(validateLabels(labels, 'labels').map((e) => e.field)).toEqual(expected);
    },
  );
});

// util/validation IsDNS1123Label (apimachinery eed236ce): a valid subdomain that is no valid label is wrong
// only by its dots, and says so instead of printing the label regex.
describe('validateNamespaceName messages (util/validation IsDNS1123Label)', () => {
  it.each([
    { description: 'dots only', ns: 'team.a', expected: ['must not contain dots'] },
    { description: 'too long', ns: 'n'.repeat(64), expected: ['must be no more than 63 characters'] },
    {
      description: 'upper case: the label regex',
      ns: 'Team',
      expected: [
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " +
          "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
  ])('$description', ({ ns, expected }) => {
    expect(validateNamespaceName(ns).map((e) => e.message.replace(/^Invalid value: "[^"]*": /, ''))).toEqual(expected);
  });
});
