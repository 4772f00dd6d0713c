/**
 * What the bench asks the service: the pod mix for feasible-nodes (inline specs as the API takes
 * them, plus podRefs to stored pending pods), the taint-impact request, the taint mutations.
 */
import { DRAIN_TAINT, type GeneratedInventory } from './generate-inventory';

export interface PodCase {
  name: string;
  /** The REST body of POST /v1/decisions/feasible-nodes. */
  body: Record<string, any>;
}

const DEFAULTS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

export const FEASIBLE_LIMIT = 20;

/**
 * The same inline pod, made distinct for the n-th request: one more toleration, for a taint key no node
 * has (`NoSchedule`, so it plays no part in scoring either). The answer is the same; the service's
 * answer cache (keyed by what the answer depends on) cannot recognise it, so every request is a full
 * decision: admission, validation, compilation and the pass over every node.
 */
export function distinctPodBody(body: Record<string, any>, n: number | string): string {
  const tolerations = [
    ...(body.pod.tolerations ?? []),
    { key: `bench.taintwise.dev/request-${n}`, operator: 'Exists', effect: 'NoSchedule' },
  ];
  return JSON.stringify({ ...body, pod: { ...body.pod, tolerations } });
}

/** A mix of realistic pods over the whole cluster, each answered with `limit` 20. */
export function podMix(inv: GeneratedInventory): PodCase[] {
  const limit = FEASIBLE_LIMIT;
  const zone = inv.zones[1];
  const cases: PodCase[] = [
    {
      name: 'web (os selector, anti-spot required affinity, preferred zone)',
      body: {
        pod: {
          tolerations: DEFAULTS,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'cloud.google.com/gke-spot', operator: 'DoesNotExist' }] },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 50,
                  preference: {
                    matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }],
                  },
                },
              ],
            },
          },
          resources: { requests: { cpu: '250m', memory: '256Mi' } },
        },
        limit,
      },
    },
    {
      name: 'payments team (dedicated toleration + nodeSelector)',
      body: {
        pod: {
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'payments', effect: 'NoSchedule' }, ...DEFAULTS],
          nodeSelector: { dedicated: 'payments' },
          resources: { requests: { cpu: '500m', memory: '512Mi' } },
          priority: 1000,
        },
        limit,
      },
    },
    {
      name: 'GPU trainer (nvidia.com/gpu: 2, toleration, accelerator selector)',
      body: {
        pod: {
          tolerations: [...DEFAULTS, { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          nodeSelector: { 'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100' },
          resources: {
            requests: { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '2' },
            limits: { 'nvidia.com/gpu': '2' },
          },
        },
        limit,
      },
    },
    {
      name: 'spot-friendly batch (PreferNoSchedule toleration, preferred spot affinity)',
      body: {
        pod: {
          tolerations: [
            { key: 'cloud.google.com/gke-spot', operator: 'Equal', value: 'true', effect: 'PreferNoSchedule' },
            ...DEFAULTS,
          ],
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  preference: {
                    matchExpressions: [{ key: 'cloud.google.com/gke-spot', operator: 'In', values: ['true'] }],
                  },
                },
              ],
            },
          },
          resources: { requests: { cpu: '1', memory: '1Gi' } },
        },
        limit,
      },
    },
    {
      name: 'DaemonSet pod (DaemonSet tolerations, matchFields metadata.name)',
      body: {
        pod: {
          tolerations: [
            { operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
            { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
          ],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [inv.sampleNode.gpu] }] },
                ],
              },
            },
          },
          owner: { kind: 'DaemonSet', name: 'bench-agent' },
          resources: { requests: { cpu: '50m', memory: '64Mi' } },
          priority: 2000001000,
        },
        limit,
      },
    },
    {
      name: 'bare pod (no tolerations, no selector)',
      body: { pod: { tolerations: [], resources: { requests: { cpu: '100m', memory: '128Mi' } } }, limit },
    },
    {
      name: 'large pod (12 CPUs, 48Gi, zone selector)',
      body: {
        pod: {
          tolerations: DEFAULTS,
          nodeSelector: { 'topology.kubernetes.io/zone': zone },
          resources: { requests: { cpu: '12', memory: '48Gi' } },
        },
        limit,
      },
    },
    {
      name: 'system add-on (CriticalAddonsOnly, control-plane toleration)',
      body: {
        pod: {
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
            ...DEFAULTS,
          ],
          nodeSelector: { pool: 'system' },
          resources: { requests: { cpu: '100m', memory: '256Mi' } },
          priority: 2000000000,
        },
        limit,
      },
    },
  ];
  const pending = inv.pendingPods.slice(0, 2);
  for (const ref of pending)
    cases.push({ name: `podRef ${ref.namespace}/${ref.name} (stored pending pod)`, body: { podRef: ref, limit } });
  return cases;
}

/** Taint spec strings, kubectl style. */
export const DRAIN_SPEC = `${DRAIN_TAINT.key}=${DRAIN_TAINT.value}:${DRAIN_TAINT.effect}`;
export const DRAIN_REMOVE_SPEC = `${DRAIN_TAINT.key}:${DRAIN_TAINT.effect}-`;

/**
 * taint-impact of the drain taint over the 500-node `search` pool (all its pods: EvictNow, or EvictAfter 600 s for
 * 20%).
 */
export function taintImpactBody(): Record<string, any> {
  return { taints: [DRAIN_SPEC], labelSelector: 'pool=search' };
}

// ---------------------------------------------------------------------------------------------
// GraphQL: the same decisions through /graphql. API.md: "GraphQL mirrors every REST operation (same
// names in camelCase, same shapes)"; maps are KeyValue lists there (nodeSelector, resources). The
// operation is built from the live schema (introspection), so the bench follows the resolver's
// argument style (one `input` argument or one argument per body field).

const INTROSPECT = `query { __schema { queryType { name } types { kind name
  fields { name args { name type { ...T } } type { ...T } }
  inputFields { name type { ...T } } possibleTypes { name } } } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`;

interface TypeRef {
  kind: string;
  name: string | null;
  ofType?: TypeRef | null;
}
interface SchemaType {
  kind: string;
  name: string;
  fields?: Array<{ name: string; args: Array<{ name: string; type: TypeRef }>; type: TypeRef }> | null;
  inputFields?: Array<{ name: string; type: TypeRef }> | null;
  possibleTypes?: Array<{ name: string }> | null;
}

export interface GraphQLOperation {
  field: string;
  query: string;
  /** How a REST body becomes this query's variables (plain data: it can be sent to a load process). */
  shape: VariablesShape;
  variables(body: Record<string, any>): Record<string, any>;
}

/** The query's arguments; `single` when the one argument is an input object that takes the whole body. */
export interface VariablesShape {
  args: string[];
  single: boolean;
}

/** A REST body as the variables of a query of this shape. */
export function variablesFor(shape: VariablesShape, body: Record<string, any>): Record<string, any> {
  const input = toGraphQLInput(body);
  if (shape.single) return { [shape.args[0]]: input };
  const out: Record<string, any> = {};
  for (const a of shape.args) if (input[a] !== undefined) out[a] = input[a];
  return out;
}

const typeText = (t: TypeRef): string =>
  t.kind === 'NON_NULL' ? `${typeText(t.ofType!)}!` : t.kind === 'LIST' ? `[${typeText(t.ofType!)}]` : t.name!;
const named = (t: TypeRef): string => (t.ofType ? named(t.ofType) : t.name!);

/** Finds `fieldName` on the Query type and builds a query selecting every scalar of the answer (two levels). */
export async function graphQLOperation(
  post: (body: unknown) => Promise<any>,
  fieldName: string,
): Promise<GraphQLOperation | undefined> {
  const schema = (await post({ query: INTROSPECT }))?.data?.__schema;
  if (!schema) return undefined;
  const types = new Map<string, SchemaType>(schema.types.map((t: SchemaType) => [t.name, t]));
  const query = types.get(schema.queryType.name);
  const field = query?.fields?.find((f) => f.name === fieldName);
  if (!field) return undefined;
  const selection = (typeName: string, depth: number): string => {
    const t = types.get(typeName)!;
    if (t.kind === 'SCALAR' || t.kind === 'ENUM') return '';
    if (t.kind === 'UNION' || t.kind === 'INTERFACE') {
      return `{ __typename ${(t.possibleTypes ?? []).map((p) => `... on ${p.name} ${selection(p.name, depth)}`).join(' ')} }`;
    }
    const parts: string[] = [];
    for (const f of t.fields ?? []) {
      if (f.args.some((a) => a.type.kind === 'NON_NULL')) continue;
      const inner = types.get(named(f.type))!;
      if (inner.kind === 'SCALAR' || inner.kind === 'ENUM') parts.push(f.name);
      else if (depth < 3) parts.push(`${f.name} ${selection(inner.name, depth + 1)}`);
    }
    return `{ ${parts.join(' ')} }`;
  };
  const args = field.args;
  const single = args.length === 1 && types.get(named(args[0].type))?.kind === 'INPUT_OBJECT';
  const decl = args.map((a) => `$${a.name}: ${typeText(a.type)}`).join(', ');
  const use = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const text = `query Bench${decl ? `(${decl})` : ''} { ${field.name}${use ? `(${use})` : ''} ${selection(named(field.type), 1)} }`;
  const shape: VariablesShape = { args: args.map((a) => a.name), single };
  return { field: field.name, query: text, shape, variables: (body) => variablesFor(shape, body) };
}

const entries = (m: Record<string, string> | undefined) =>
  m ? Object.entries(m).map(([key, value]) => ({ key, value })) : undefined;

/** REST body → GraphQL input: maps become KeyValue lists; everything else keeps its JSON shape. */
export function toGraphQLInput(body: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = JSON.parse(JSON.stringify(body));
  const pod = out.pod;
  if (pod) {
    if (pod.nodeSelector) pod.nodeSelector = entries(pod.nodeSelector);
    if (pod.resources)
      pod.resources = {
        ...(pod.resources.requests ? { requests: entries(pod.resources.requests) } : {}),
        ...(pod.resources.limits ? { limits: entries(pod.resources.limits) } : {}),
      };
  }
  return out;
}
