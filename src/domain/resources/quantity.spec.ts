import {
  addResourceVectors,
  canonicalAmount,
  fromResourceVector,
  parseQuantity,
  subtractResourceVectors,
  toResourceVector,
} from './quantity';
import type { ResourceList, ResourceVector } from '../types';

// Quantity grammar and rounding from k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity,
// MilliValue, Value); cited as "quantity" since SEMANTICS does not restate them.
const parseCases: Array<{ description: string; text: string; expected: number | undefined }> = [
  { description: 'quantity: bare integer', text: '4', expected: 4 },
  { description: 'quantity: decimal fraction', text: '1.5', expected: 1.5 },
  { description: 'quantity: leading-dot fraction', text: '.5', expected: 0.5 },
  { description: 'quantity: milli suffix', text: '100m', expected: 0.1 },
  { description: 'quantity: micro suffix', text: '500u', expected: 0.0005 },
  { description: 'quantity: nano suffix', text: '2n', expected: 2e-9 },
  { description: 'quantity: kilo suffix', text: '2k', expected: 2000 },
  { description: 'quantity: mega suffix', text: '3M', expected: 3e6 },
  { description: 'quantity: giga suffix', text: '1G', expected: 1e9 },
  { description: 'quantity: tera suffix', text: '1T', expected: 1e12 },
  { description: 'quantity: peta suffix', text: '1P', expected: 1e15 },
  { description: 'quantity: exa suffix (a lone E is a suffix, not an exponent)', text: '1E', expected: 1e18 },
  { description: 'quantity: Ki', text: '2Ki', expected: 2048 },
  { description: 'quantity: Mi', text: '128Mi', expected: 134217728 },
  { description: 'quantity: Gi with a fraction', text: '1.5Gi', expected: 1610612736 },
  { description: 'quantity: Ti', text: '1Ti', expected: 2 ** 40 },
  { description: 'quantity: Pi', text: '1Pi', expected: 2 ** 50 },
  { description: 'quantity: Ei', text: '1Ei', expected: 2 ** 60 },
  { description: 'quantity: exponent form', text: '1e3', expected: 1000 },
  { description: 'quantity: upper-case exponent form', text: '1E3', expected: 1000 },
  { description: 'quantity: negative exponent', text: '25e-2', expected: 0.25 },
  { description: 'quantity: explicit positive exponent', text: '1e+3', expected: 1000 },
  { description: 'quantity: explicit plus sign', text: '+5', expected: 5 },
  { description: 'quantity: negative value parses', text: '-1.5', expected: -1.5 },
  { description: 'quantity: negative zero is zero', text: '-0', expected: 0 },
  { description: 'quantity: empty string is rejected', text: '', expected: undefined },
  { description: 'quantity: a lone dot is rejected', text: '.', expected: undefined },
  { description: 'quantity: upper-case K is not a suffix', text: '1K', expected: undefined },
  { description: 'quantity: lower-case ki is not a suffix', text: '1ki', expected: undefined },
  { description: 'quantity: e without digits is not an exponent', text: '1e', expected: undefined },
  { description: 'quantity: digits after a binary suffix are rejected', text: '1Mi3', expected: undefined },
  { description: 'quantity: whitespace is rejected', text: ' 1', expected: undefined },
  { description: 'quantity: units spelled out are rejected', text: '1 GB', expected: undefined },
  { description: 'quantity: two signs are rejected', text: '--1', expected: undefined },
  { description: 'quantity: absurd exponent is rejected', text: '1e99999', expected: undefined },
  { description: 'quantity: exponent overflowing a double is rejected', text: '1e400', expected: undefined },
];

const amountCases: Array<{ description: string; resource: string; text: string; expected: number | undefined }> = [
  { description: 'quantity: cpu cores become millicores', resource: 'cpu', text: '2', expected: 2000 },
  { description: 'quantity: 0.1 cpu is exactly 100m (no float drift)', resource: 'cpu', text: '0.1', expected: 100 },
  { description: 'quantity: cpu millicores stay', resource: 'cpu', text: '250m', expected: 250 },
  { description: 'quantity: cpu below a millicore rounds up (MilliValue)', resource: 'cpu', text: '500u', expected: 1 },
  { description: 'quantity: cpu 1.0001 rounds up to 1001m', resource: 'cpu', text: '1.0001', expected: 1001 },
  { description: 'quantity: cpu in exponent form', resource: 'cpu', text: '1e-3', expected: 1 },
  { description: 'quantity: memory Mi in bytes', resource: 'memory', text: '128Mi', expected: 134217728 },
  { description: 'quantity: memory fractional bytes round up (Value)', resource: 'memory', text: '1500m', expected: 2 },
  { description: 'quantity: memory 0.5Ki is 512 bytes', resource: 'memory', text: '.5Ki', expected: 512 },
  { description: 'quantity: ephemeral-storage G', resource: 'ephemeral-storage', text: '1G', expected: 1e9 },
  { description: 'quantity: hugepages in bytes', resource: 'hugepages-2Mi', text: '4Mi', expected: 4194304 },
  { description: 'quantity: extended resource count', resource: 'nvidia.com/gpu', text: '2', expected: 2 },
  { description: 'quantity: pods count', resource: 'pods', text: '110', expected: 110 },
  { description: 'quantity: zero', resource: 'cpu', text: '0', expected: 0 },
  { description: 'quantity: negative zero is zero', resource: 'cpu', text: '-0', expected: 0 },
  { description: 'quantity: negative amounts are rejected', resource: 'memory', text: '-1Mi', expected: undefined },
  {
    description: 'quantity: tiny negative amounts are rejected too',
    resource: 'cpu',
    text: '-1n',
    expected: undefined,
  },
  { description: 'quantity: beyond a safe integer is rejected', resource: 'memory', text: '1e20', expected: undefined },
  { description: 'quantity: unparsable is rejected', resource: 'cpu', text: 'two', expected: undefined },
];

const vectorCases: Array<{
  description: string;
  list: ResourceList | null | undefined;
  vector: ResourceVector;
  errors: Array<{ resource: string; value: string }>;
}> = [
  {
    description: 'quantity: a typical request list',
    list: { cpu: '100m', memory: '128Mi' },
    vector: { cpu: 100, memory: 134217728 },
    errors: [],
  },
  {
    description: 'quantity: bad entries are reported and left out',
    list: { cpu: 'lots', memory: '1Gi', 'example.com/foo': '-1' },
    vector: { memory: 1073741824 },
    errors: [
      { resource: 'cpu', value: 'lots' },
      { resource: 'example.com/foo', value: '-1' },
    ],
  },
  {
    description: 'quantity: a non-string value is an error',
    list: { cpu: 2 as unknown as string },
    vector: {},
    errors: [{ resource: 'cpu', value: '2' }],
  },
  { description: 'quantity: null list is empty', list: null, vector: {}, errors: [] },
  { description: 'quantity: undefined list is empty', list: undefined, vector: {}, errors: [] },
];

const backCases: Array<{ description: string; vector: ResourceVector; list: ResourceList }> = [
  { description: 'quantity: cpu millicores print as m', vector: { cpu: 250 }, list: { cpu: '250m' } },
  { description: 'quantity: whole cores print canonically', vector: { cpu: 4000 }, list: { cpu: '4' } },
  { description: 'quantity: zero cpu', vector: { cpu: 0 }, list: { cpu: '0' } },
  {
    description: 'quantity: other resources print as integers',
    vector: { memory: 1024, pods: 3, 'nvidia.com/gpu': 1 },
    list: { memory: '1024', pods: '3', 'nvidia.com/gpu': '1' },
  },
];

const arithmeticCases: Array<{
  description: string;
  a: ResourceVector;
  b: ResourceVector;
  sum: ResourceVector;
  difference: ResourceVector;
}> = [
  {
    description: 'quantity: shared resources add and subtract',
    a: { cpu: 100, memory: 10 },
    b: { cpu: 50, memory: 20 },
    sum: { cpu: 150, memory: 30 },
    difference: { cpu: 50, memory: -10 },
  },
  {
    description: 'quantity: a resource on one side counts 0 on the other',
    a: { cpu: 100 },
    b: { pods: 1 },
    sum: { cpu: 100, pods: 1 },
    difference: { cpu: 100, pods: -1 },
  },
  { description: 'quantity: empty vectors', a: {}, b: {}, sum: {}, difference: {} },
];

describe('parseQuantity', () => {
  it.each(parseCases)('$description', ({ text, expected }) => {
    expect(parseQuantity(text)).toBe(expected);
  });
});

describe('canonicalAmount', () => {
  it.each(amountCases)('$description', ({ resource, text, expected }) => {
    expect(canonicalAmount(resource, text)).toBe(expected);
  });
});

describe('toResourceVector', () => {
  it.each(vectorCases)('$description', ({ list, vector, errors }) => {
    expect(toResourceVector(list)).toEqual({ vector, errors });
  });
});

describe('fromResourceVector', () => {
  it.each(backCases)('$description', ({ vector, list }) => {
    expect(fromResourceVector(vector)).toEqual(list);
  });

  it.each(backCases)('quantity: round-trips $description', ({ vector }) => {
    expect(toResourceVector(fromResourceVector(vector)).vector).toEqual(vector);
  });
});

describe('addResourceVectors / subtractResourceVectors', () => {
  it.each(arithmeticCases)('$description', ({ a, b, sum, difference }) => {
    const before = { ...a };
    expect(addResourceVectors(a, b)).toEqual(sum);
    expect(subtractResourceVectors(a, b)).toEqual(difference);
    expect(a).toEqual(before);
  });
});
