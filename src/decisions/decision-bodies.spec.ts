import { FALLBACK } from '../kernel/http/input/fast-body';
import { parseBody } from '../kernel/http/input/parse-body';
import { feasibleNodesBodySchema, readFeasibleNodesBody } from './decision-bodies';

/**
 * The compiled reader (fast-body.ts) against the zod schema it stands in front of: whenever the reader
 * answers, zod accepts the body and returns a deep-equal value (same keys, same order, quantities as
 * strings); whenever zod refuses, the reader falls back, so the 400 is zod's, unchanged.
 */
const DEFAULTS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

const SEEDS: Array<Record<string, unknown>> = [
  {
    pod: {
      tolerations: DEFAULTS,
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'cloud.google.com/gke-spot', operator: 'DoesNotExist' }] }],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 50,
              preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['b'] }] },
            },
          ],
        },
      },
      resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: 512 } },
    },
    limit: 20,
  },
  {
    pod: {
      tolerations: [
        { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
        { operator: 'Exists' },
      ],
      resources: { requests: { 'nvidia.com/gpu': 1, cpu: 2.5 } },
      priority: -5,
      owner: { kind: 'DaemonSet', name: 'fluent-bit' },
      hostNetwork: true,
    },
    nodeNames: ['n1', 'n2', 'n1'],
  },
  {
    pod: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3'] }] }],
          },
          preferredDuringSchedulingIgnoredDuringExecution: null,
        },
      },
      resources: null,
      owner: null,
      tolerations: [{ key: 'k', effect: 'NoExecute', tolerationSeconds: null }],
    },
    labelSelector: 'pool=search,zone in (a,b)',
    limit: 0,
  },
  { podRef: { namespace: 'default', name: 'web-0' }, limit: 5000 },
  { pod: {} },
  { pod: { affinity: null, nodeSelector: {} } },
  { pod: { affinity: { nodeAffinity: null } } },
  { pod: { affinity: {} }, podRef: { namespace: 'a', name: 'b' } }, // mutually exclusive: checked after the schema
  {},
];

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  -(2 ** 31) - 1,
  5000,
  5001,
  2 ** 53,
  2 ** 53 - 1,
  1e300,
  -(2 ** 53) - 2,
  '',
  'x',
  'x'.repeat(254),
  'x'.repeat(4097),
  '😀'.repeat(2049),
  '😀'.repeat(127),
  true,
  [],
  ['a'],
  [1],
  {},
  { key: 'k' },
  { __proto__: null, a: 'b' },
  new Date(0),
  Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`r${i}`, '1'])),
];

/** A copy of `value` with one random change somewhere in it. */
function mutate(value: unknown, next: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  if (Array.isArray(value)) {
    const copy = value.map((v) => v as unknown);
    const r = next();
    if (copy.length > 0 && r < 0.6) {
      const i = Math.floor(next() * copy.length);
      copy[i] = mutate(copy[i], next);
    } else if (r < 0.8) copy.push(pick(ODD_VALUES));
    else copy.splice(0, 1);
    return copy;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const r = next();
    if (keys.length > 0 && r < 0.55) {
      const k = pick(keys);
      copy[k] = mutate(copy[k], next);
    } else if (keys.length > 0 && r < 0.7) delete copy[pick(keys)];
    else if (r < 0.85)
      copy[pick(['extra', 'podref', 'tolerations', 'limit', 'values', 'weight', '__proto__'])] = pick(ODD_VALUES);
    else return pick(ODD_VALUES);
    return copy;
  }
  return next() < 0.5 ? pick(ODD_VALUES) : value;
}

describe('readFeasibleNodesBody, the compiled reader in front of feasibleNodesBodySchema', () => {
  it.each(SEEDS.map((s) => [JSON.stringify(s), s]))('reads %s as zod does', (_, body) => {
    const fast = readFeasibleNodesBody(body);
    expect(fast).not.toBe(FALLBACK);
    expect(fast).toStrictEqual(feasibleNodesBodySchema.parse(body));
    // and through a JSON round trip, as Fastify hands a body over
    const parsed: unknown = JSON.parse(JSON.stringify(body));
    expect(readFeasibleNodesBody(parsed)).toStrictEqual(feasibleNodesBodySchema.parse(parsed));
  });

  it('agrees with zod on every odd value at every place of every seed', () => {
    const places = (value: unknown, path: Array<string | number> = []): Array<Array<string | number>> => {
      if (value === null || typeof value !== 'object') return [path];
      const inner = Object.entries(value).flatMap(([k, v]) =>
        places(v, [...path, Array.isArray(value) ? Number(k) : k]),
      );
      return [path, ...inner];
    };
    const replaced = (value: unknown, path: Array<string | number>, by: unknown): unknown => {
      if (path.length === 0) return by;
      const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
      copy[path[0]] = replaced(copy[path[0]], path.slice(1), by);
      return copy;
    };
    let compared = 0;
    for (const seed of SEEDS)
      for (const path of places(seed))
        for (const odd of ODD_VALUES) {
          const body = replaced(seed, path, odd);
          const fast = readFeasibleNodesBody(body);
          if (fast === FALLBACK) continue;
          const zod = feasibleNodesBodySchema.safeParse(body);
          expect({ path, odd, accepted: zod.success }).toEqual({ path, odd, accepted: true });
          expect(fast).toStrictEqual(zod.data);
          compared++;
        }
    expect(compared).toBeGreaterThan(300);
  });

  it('never answers where zod refuses, and answers what zod answers (8,000 mutated bodies)', () => {
    const next = random(16);
    let answered = 0;
    let refusedByZod = 0;
    for (let n = 0; n < 8_000; n++) {
      let body: unknown = SEEDS[n % SEEDS.length];
      const changes = 1 + Math.floor(next() * 3);
      for (let c = 0; c < changes; c++) body = mutate(body, next);
      const fast = readFeasibleNodesBody(body);
      const zod = feasibleNodesBodySchema.safeParse(body);
      if (!zod.success) refusedByZod++;
      if (fast === FALLBACK) continue;
      answered++;
      expect(zod.success).toBe(true);
      expect(fast).toStrictEqual(zod.data);
    }
    // both kinds were exercised
    expect(answered).toBeGreaterThan(800);
    expect(refusedByZod).toBeGreaterThan(2000);
  });

  it('leaves the 400 to the schema: the same field paths and words as before', () => {
    const cases: unknown[] = [
      { pod: { tolerations: [{ key: 1 }] } },
      { pod: { resources: { requests: { cpu: true } } }, extra: 1 },
      { limit: 5001 },
      { limit: 1.5 },
      { podRef: { namespace: '', name: 'x' } },
      { nodeNames: 'n1' },
      null,
      [],
    ];
    for (const body of cases) {
      expect(readFeasibleNodesBody(body)).toBe(FALLBACK);
      expect(() => parseBody(feasibleNodesBodySchema, body, 'feasible-nodes request')).toThrow();
    }
    expect(() => parseBody(feasibleNodesBodySchema, cases[0], 'feasible-nodes request')).toThrow(
      'feasible-nodes request is malformed: pod.tolerations[0].key: expected string',
    );
  });
});
