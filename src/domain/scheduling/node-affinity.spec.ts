import {
  nodeAffinityKeys,
  compileNodeSelectorTerm,
  compilePreferredNodeAffinity,
  compileRequiredNodeAffinity,
  integerComparator,
  parseGoInt64,
  preferredAffinityWeight,
  type AffinityTarget,
} from './node-affinity';
import type { NodeSelectorRequirement, NodeSelectorTerm, PodSpec, PreferredSchedulingTerm } from '../types';

const node = (labels: Record<string, string>, name = 'node-1'): AffinityTarget => ({ name, labels });
const expr = (key: string, operator: string, values?: string[]): NodeSelectorRequirement => ({
  key,
  operator,
  ...(values ? { values } : {}),
});
const required = (...nodeSelectorTerms: NodeSelectorTerm[]): Pick<PodSpec, 'affinity'> => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } },
});

// component-helpers/scheduling/corev1/nodeaffinity and apimachinery labels.Requirement.Matches.
const termCases: Array<{ description: string; term: NodeSelectorTerm; node: AffinityTarget; expected: boolean }> = [
  {
    description: 'NodeAffinity: In matches a listed value',
    term: { matchExpressions: [expr('zone', 'In', ['a', 'b'])] },
    node: node({ zone: 'b' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: In fails on another value',
    term: { matchExpressions: [expr('zone', 'In', ['a'])] },
    node: node({ zone: 'c' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: In fails on a missing label',
    term: { matchExpressions: [expr('zone', 'In', ['a'])] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: In does not see Object.prototype keys',
    term: { matchExpressions: [expr('constructor', 'In', ['a'])] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: NotIn matches a missing label',
    term: { matchExpressions: [expr('zone', 'NotIn', ['a'])] },
    node: node({}),
    expected: true,
  },
  {
    description: 'NodeAffinity: NotIn fails on a listed value',
    term: { matchExpressions: [expr('zone', 'NotIn', ['a'])] },
    node: node({ zone: 'a' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: NotIn matches another value',
    term: { matchExpressions: [expr('zone', 'NotIn', ['a'])] },
    node: node({ zone: 'b' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Exists matches any value, even empty',
    term: { matchExpressions: [expr('gpu', 'Exists')] },
    node: node({ gpu: '' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Exists fails on a missing label',
    term: { matchExpressions: [expr('gpu', 'Exists')] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: Exists does not see Object.prototype keys',
    term: { matchExpressions: [expr('toString', 'Exists')] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: DoesNotExist matches a missing label',
    term: { matchExpressions: [expr('gpu', 'DoesNotExist')] },
    node: node({}),
    expected: true,
  },
  {
    description: 'NodeAffinity: DoesNotExist fails on a present label',
    term: { matchExpressions: [expr('gpu', 'DoesNotExist')] },
    node: node({ gpu: 'x' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: Gt compares the label value as an integer',
    term: { matchExpressions: [expr('cores', 'Gt', ['8'])] },
    node: node({ cores: '16' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Gt is strict',
    term: { matchExpressions: [expr('cores', 'Gt', ['8'])] },
    node: node({ cores: '8' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: Gt is numeric, not lexicographic',
    term: { matchExpressions: [expr('cores', 'Gt', ['8'])] },
    node: node({ cores: '10' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Lt compares as integers',
    term: { matchExpressions: [expr('cores', 'Lt', ['8'])] },
    node: node({ cores: '4' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Lt is strict',
    term: { matchExpressions: [expr('cores', 'Lt', ['8'])] },
    node: node({ cores: '8' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: Gt/Lt accept leading zeros like strconv.ParseInt',
    term: { matchExpressions: [expr('cores', 'Gt', ['8'])] },
    node: node({ cores: '016' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Gt fails on a non-integer label value',
    term: { matchExpressions: [expr('cores', 'Gt', ['8'])] },
    node: node({ cores: '16.5' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: Gt fails on a missing label',
    term: { matchExpressions: [expr('cores', 'Gt', ['-1'])] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: Lt with negative numbers',
    term: { matchExpressions: [expr('t', 'Lt', ['-5'])] },
    node: node({ t: '-10' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: Gt with a non-integer value never parses',
    term: { matchExpressions: [expr('cores', 'Gt', ['eight'])] },
    node: node({ cores: '16' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: Gt with two values never parses',
    term: { matchExpressions: [expr('cores', 'Gt', ['1', '2'])] },
    node: node({ cores: '16' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: In without values never parses',
    term: { matchExpressions: [expr('zone', 'In', [])] },
    node: node({ zone: 'a' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: NotIn without values never parses',
    term: { matchExpressions: [expr('zone', 'NotIn')] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: Exists with values never parses',
    term: { matchExpressions: [expr('zone', 'Exists', ['a'])] },
    node: node({ zone: 'a' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: an unknown operator never parses',
    term: { matchExpressions: [expr('zone', 'in', ['a'])] },
    node: node({ zone: 'a' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: expressions within a term are ANDed (all hold)',
    term: { matchExpressions: [expr('zone', 'In', ['a']), expr('gpu', 'Exists')] },
    node: node({ zone: 'a', gpu: '1' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: expressions within a term are ANDed (one fails)',
    term: { matchExpressions: [expr('zone', 'In', ['a']), expr('gpu', 'Exists')] },
    node: node({ zone: 'a' }),
    expected: false,
  },
  { description: 'NodeAffinity: an empty term matches nothing', term: {}, node: node({ zone: 'a' }), expected: false },
  {
    description: 'NodeAffinity: a term with empty lists matches nothing',
    term: { matchExpressions: [], matchFields: [] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: matchFields metadata.name In',
    term: { matchFields: [expr('metadata.name', 'In', ['node-1'])] },
    node: node({}, 'node-1'),
    expected: true,
  },
  {
    description: 'NodeAffinity: matchFields metadata.name In another name',
    term: { matchFields: [expr('metadata.name', 'In', ['node-2'])] },
    node: node({}, 'node-1'),
    expected: false,
  },
  {
    description: 'NodeAffinity: matchFields metadata.name NotIn',
    term: { matchFields: [expr('metadata.name', 'NotIn', ['node-2'])] },
    node: node({}, 'node-1'),
    expected: true,
  },
  {
    description: 'NodeAffinity: matchFields NotIn its own name',
    term: { matchFields: [expr('metadata.name', 'NotIn', ['node-1'])] },
    node: node({}, 'node-1'),
    expected: false,
  },
  {
    description: 'NodeAffinity: matchFields needs exactly one value',
    term: { matchFields: [expr('metadata.name', 'In', ['node-1', 'node-2'])] },
    node: node({}, 'node-1'),
    expected: false,
  },
  {
    description: 'NodeAffinity: matchFields supports only In/NotIn',
    term: { matchFields: [expr('metadata.name', 'Exists')] },
    node: node({}, 'node-1'),
    expected: false,
  },
  {
    description: 'NodeAffinity: matchFields on an unknown field reads "" (In)',
    term: { matchFields: [expr('metadata.uid', 'In', ['x'])] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: matchFields on an unknown field reads "" (In "")',
    term: { matchFields: [expr('metadata.uid', 'In', [''])] },
    node: node({}),
    expected: true,
  },
  {
    description: 'NodeAffinity: matchFields on an unknown field reads "" (NotIn)',
    term: { matchFields: [expr('metadata.uid', 'NotIn', ['x'])] },
    node: node({}),
    expected: true,
  },
  {
    description: 'NodeAffinity: matchFields on an unknown field reads "" (NotIn "")',
    term: { matchFields: [expr('metadata.uid', 'NotIn', [''])] },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: labels and fields of a term are ANDed',
    term: { matchExpressions: [expr('zone', 'In', ['a'])], matchFields: [expr('metadata.name', 'In', ['node-1'])] },
    node: node({ zone: 'b' }, 'node-1'),
    expected: false,
  },
  {
    description: 'NodeAffinity: one bad field expression spoils the term',
    term: { matchExpressions: [expr('zone', 'In', ['a'])], matchFields: [expr('metadata.name', 'Gt', ['1'])] },
    node: node({ zone: 'a' }, 'node-1'),
    expected: false,
  },
];

describe('compileNodeSelectorTerm (NodeAffinity)', () => {
  it.each(termCases)('$description', ({ term, node: target, expected }) => {
    expect(compileNodeSelectorTerm(term)(target)).toBe(expected);
  });
});

const requiredCases: Array<{
  description: string;
  pod: Pick<PodSpec, 'nodeSelector' | 'affinity'>;
  node: AffinityTarget;
  expected: boolean | 'skipped';
}> = [
  { description: 'NodeAffinity: no selector and no affinity: skipped', pod: {}, node: node({}), expected: 'skipped' },
  {
    description: 'NodeAffinity: empty nodeSelector and null affinity: skipped',
    pod: { nodeSelector: {}, affinity: { nodeAffinity: null } },
    node: node({}),
    expected: 'skipped',
  },
  {
    description: 'NodeAffinity: preferred-only affinity does not filter',
    pod: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } } },
    node: node({}),
    expected: 'skipped',
  },
  {
    description: 'NodeAffinity: nodeSelector needs every label equal',
    pod: { nodeSelector: { zone: 'a', disk: 'ssd' } },
    node: node({ zone: 'a', disk: 'ssd', x: 'y' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: nodeSelector fails on a different value',
    pod: { nodeSelector: { zone: 'a' } },
    node: node({ zone: 'b' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: nodeSelector fails on a missing label',
    pod: { nodeSelector: { zone: 'a' } },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: an empty nodeSelectorTerms list matches nothing',
    pod: required(),
    node: node({ zone: 'a' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: null nodeSelectorTerms matches nothing',
    pod: {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: null as unknown as [] } },
      },
    },
    node: node({}),
    expected: false,
  },
  {
    description: 'NodeAffinity: terms are ORed',
    pod: required({ matchExpressions: [expr('zone', 'In', ['a'])] }, { matchExpressions: [expr('zone', 'In', ['b'])] }),
    node: node({ zone: 'b' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: no term matching fails',
    pod: required({ matchExpressions: [expr('zone', 'In', ['a'])] }, { matchExpressions: [expr('zone', 'In', ['b'])] }),
    node: node({ zone: 'c' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: a bad term is ignored, the others still count',
    pod: required({ matchExpressions: [expr('zone', 'Gt', ['a'])] }, { matchExpressions: [expr('zone', 'In', ['c'])] }),
    node: node({ zone: 'c' }),
    expected: true,
  },
  {
    description: 'NodeAffinity: nodeSelector AND required affinity (selector fails)',
    pod: { nodeSelector: { disk: 'ssd' }, ...required({ matchExpressions: [expr('zone', 'In', ['a'])] }) },
    node: node({ zone: 'a' }),
    expected: false,
  },
  {
    description: 'NodeAffinity: nodeSelector AND required affinity (both hold)',
    pod: { nodeSelector: { disk: 'ssd' }, ...required({ matchExpressions: [expr('zone', 'In', ['a'])] }) },
    node: node({ zone: 'a', disk: 'ssd' }),
    expected: true,
  },
];

describe('compileRequiredNodeAffinity (NodeAffinity filter)', () => {
  it.each(requiredCases)('$description', ({ pod, node: target, expected }) => {
    const matcher = compileRequiredNodeAffinity(pod);
    if (expected === 'skipped') expect(matcher).toBeUndefined();
    else expect(matcher?.(target)).toBe(expected);
  });
});

const preferred = (...terms: PreferredSchedulingTerm[]): Pick<PodSpec, 'affinity'> => ({
  affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: terms } },
});
const preferredCases: Array<{
  description: string;
  pod: Pick<PodSpec, 'affinity'>;
  node: AffinityTarget;
  terms: number;
  expected: number;
}> = [
  { description: 'NodeAffinity score: no preferences', pod: {}, node: node({}), terms: 0, expected: 0 },
  {
    description: 'NodeAffinity score: sum of the weights of matching terms',
    pod: preferred(
      { weight: 10, preference: { matchExpressions: [expr('zone', 'In', ['a'])] } },
      { weight: 5, preference: { matchExpressions: [expr('gpu', 'Exists')] } },
      { weight: 7, preference: { matchExpressions: [expr('zone', 'In', ['b'])] } },
    ),
    node: node({ zone: 'a', gpu: '1' }),
    terms: 3,
    expected: 15,
  },
  {
    description: 'NodeAffinity score: weight-0 terms are dropped',
    pod: preferred({ weight: 0, preference: { matchExpressions: [expr('zone', 'Exists')] } }),
    node: node({ zone: 'a' }),
    terms: 0,
    expected: 0,
  },
  {
    description: 'NodeAffinity score: negative weights are dropped (validation allows 1..100)',
    pod: preferred({ weight: -5, preference: { matchExpressions: [expr('zone', 'Exists')] } }),
    node: node({ zone: 'a' }),
    terms: 0,
    expected: 0,
  },
  {
    description: 'NodeAffinity score: an empty preference matches nothing',
    pod: preferred({ weight: 9, preference: {} }),
    node: node({ zone: 'a' }),
    terms: 0,
    expected: 0,
  },
  {
    description: 'NodeAffinity score: a missing preference matches nothing',
    pod: preferred({ weight: 9, preference: undefined as unknown as NodeSelectorTerm }),
    node: node({}),
    terms: 0,
    expected: 0,
  },
  {
    description: 'NodeAffinity score: a term that does not parse is dropped',
    pod: preferred(
      { weight: 9, preference: { matchExpressions: [expr('zone', 'Lt', ['x'])] } },
      { weight: 3, preference: { matchFields: [expr('metadata.name', 'In', ['node-1'])] } },
    ),
    node: node({}),
    terms: 1,
    expected: 3,
  },
];

describe('compilePreferredNodeAffinity / preferredAffinityWeight (NodeAffinity score)', () => {
  it.each(preferredCases)('$description', ({ pod, node: target, terms, expected }) => {
    const compiled = compilePreferredNodeAffinity(pod);
    expect(compiled).toHaveLength(terms);
    expect(preferredAffinityWeight(compiled, target)).toBe(expected);
  });
});

describe('integerComparator (Gt/Lt label values)', () => {
  it.each([
    { description: 'NodeAffinity: greater', bound: 8n, text: '16', expected: 1 },
    { description: 'NodeAffinity: smaller', bound: 8n, text: '4', expected: -1 },
    { description: 'NodeAffinity: equal', bound: 8n, text: '8', expected: 0 },
    { description: 'NodeAffinity: leading plus and zeros', bound: 8n, text: '+008', expected: 0 },
    { description: 'NodeAffinity: negative', bound: 0n, text: '-3', expected: -1 },
    { description: 'NodeAffinity: a lone sign is not a number', bound: 0n, text: '-', expected: undefined },
    { description: 'NodeAffinity: empty is not a number', bound: 0n, text: '', expected: undefined },
    { description: 'NodeAffinity: a decimal is not a number', bound: 0n, text: '1.5', expected: undefined },
    {
      description: 'NodeAffinity: long values compare exactly (bigint path)',
      bound: 9007199254740993n,
      text: '9007199254740992',
      expected: -1,
    },
    {
      description: 'NodeAffinity: a long label against a small bound',
      bound: 1n,
      text: '12345678901234567',
      expected: 1,
    },
    {
      description: 'NodeAffinity: a long label beyond int64',
      bound: 1n,
      text: '99999999999999999999',
      expected: undefined,
    },
    {
      description: 'NodeAffinity: a bound beyond double precision',
      bound: 9007199254740993n,
      text: '9007199254740993',
      expected: 0,
    },
  ])('$description', ({ bound, text, expected }) => {
    expect(integerComparator(bound)(text)).toBe(expected);
  });
});

describe('parseGoInt64 (strconv.ParseInt base 10)', () => {
  it.each([
    { description: 'NodeAffinity: plain integer', text: '42', expected: 42n },
    { description: 'NodeAffinity: leading plus', text: '+7', expected: 7n },
    { description: 'NodeAffinity: leading zeros', text: '007', expected: 7n },
    { description: 'NodeAffinity: minus zero', text: '-0', expected: 0n },
    { description: 'NodeAffinity: int64 max', text: '9223372036854775807', expected: 9223372036854775807n },
    { description: 'NodeAffinity: beyond int64', text: '9223372036854775808', expected: undefined },
    { description: 'NodeAffinity: below int64', text: '-9223372036854775809', expected: undefined },
    { description: 'NodeAffinity: decimal', text: '1.5', expected: undefined },
    { description: 'NodeAffinity: empty', text: '', expected: undefined },
    { description: 'NodeAffinity: underscores are not allowed in base 10', text: '1_000', expected: undefined },
  ])('$description', ({ text, expected }) => {
    expect(parseGoInt64(text)).toBe(expected);
  });
});

describe('nodeAffinityKeys', () => {
  it('NodeAffinity: every key the matchers read, sorted once, and the name for metadata.name fields', () => {
    expect(
      nodeAffinityKeys({
        nodeSelector: { zone: 'a', os: 'linux' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'zone', operator: 'In', values: ['a'] },
                    { key: 'cores', operator: 'Gt', values: ['x'] },
                  ],
                },
                {
                  matchFields: [
                    { key: 'metadata.name', operator: 'In', values: ['n1'] },
                    { key: 'spec.other', operator: 'In', values: [''] },
                  ],
                },
              ],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 0, preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } },
            ],
          },
        },
      }),
    ).toEqual({ labels: ['cores', 'gpu', 'os', 'zone'], name: true });
  });

  it('NodeAffinity: nothing for a pod without constraints', () => {
    expect(nodeAffinityKeys({ nodeSelector: undefined, affinity: null })).toEqual({ labels: [], name: false });
  });
});
