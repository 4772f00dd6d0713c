import { POD_SPEC_SCHEMA, TAINT_SCHEMA, TOLERATION_SCHEMA } from '../../kernel/http/api-docs';

/** OpenAPI schemas and examples of the decision endpoints (API.md "Decisions"). */
const POD_REF_SCHEMA = {
  type: 'object',
  required: ['namespace', 'name'],
  properties: { namespace: { type: 'string', example: 'default' }, name: { type: 'string', example: 'web-1' } },
};

const DECISION_TAINT_SCHEMA = {
  type: 'object',
  required: ['key', 'value', 'effect'],
  properties: {
    key: { type: 'string', example: 'dedicated' },
    value: { type: 'string', example: 'gpu' },
    effect: TAINT_SCHEMA.properties.effect,
  },
};

export const FEASIBLE_NODES_BODY_SCHEMA = {
  type: 'object',
  description:
    'Exactly one of `pod` (an inline spec, validated and given the admission defaults as if the pod were created: ' +
    'DefaultTolerationSeconds, DaemonSet and memory-pressure tolerations, ExtendedResourceToleration) or `podRef` ' +
    "(a stored pod, used as stored; a bound pod's own requests are not counted twice on its node). At most one of " +
    '`nodeNames` (unknown names are a 404 listing them) and `labelSelector` (Kubernetes syntax); neither means every node.',
  properties: {
    pod: POD_SPEC_SCHEMA,
    podRef: POD_REF_SCHEMA,
    nodeNames: { type: 'array', items: { type: 'string' }, example: ['node-1', 'node-2'] },
    labelSelector: { type: 'string', example: 'pool=gpu' },
    limit: {
      type: 'integer',
      minimum: 0,
      maximum: 5000,
      default: 100,
      description: 'Caps the `nodes` array only, never the counts or the message.',
    },
  },
};

const REASON_SCHEMA = {
  type: 'object',
  required: ['plugin', 'message'],
  properties: {
    plugin: { type: 'string', enum: ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit'] },
    message: { type: 'string', example: 'node(s) had untolerated taint {dedicated: gpu}' },
    taint: {
      ...DECISION_TAINT_SCHEMA,
      description:
        'TaintToleration: the first untolerated taint (absent when explanations are redacted, SEMANTICS A.2)',
    },
    resource: {
      type: 'string',
      example: 'cpu',
      description: 'NodeResourcesFit: the resource that does not fit (`pods` for Too many pods)',
    },
  },
};

export const FEASIBLE_NODES_ANSWER_SCHEMA = {
  type: 'object',
  required: ['totalNodes', 'feasibleCount', 'message', 'nodes'],
  properties: {
    totalNodes: { type: 'integer', description: 'Candidate nodes (all, or those named/selected)' },
    feasibleCount: { type: 'integer' },
    message: {
      type: 'string',
      description:
        "Upstream's FitError text generalised: `<feasible>/<total> nodes are available: <count> <reason>, ...` (each infeasible node counted once, by its first failing plugin; reasons sorted as strings)",
    },
    nodes: {
      type: 'array',
      description:
        'Feasible nodes first, best score first, then by name; then the infeasible ones by name. Capped by `limit`.',
      items: {
        type: 'object',
        required: ['name', 'feasible'],
        properties: {
          name: { type: 'string' },
          feasible: { type: 'boolean' },
          score: {
            type: 'integer',
            minimum: 0,
            maximum: 100,
            description:
              'Feasible nodes: the weighted total of the normalised scores (TaintToleration 3, NodeAffinity 2)',
          },
          scores: {
            type: 'object',
            properties: { TaintToleration: { type: 'integer' }, NodeAffinity: { type: 'integer' } },
          },
          reasons: {
            type: 'array',
            items: REASON_SCHEMA,
            description: 'Infeasible nodes: every failing check, in plugin order (SEMANTICS A.2)',
          },
        },
      },
    },
  },
};

export const FEASIBLE_NODES_EXAMPLES = {
  inlinePod: {
    summary: 'An inline pod that tolerates the GPU taint',
    value: {
      pod: {
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
        resources: { requests: { cpu: '500m', memory: '1Gi' } },
      },
      limit: 10,
    },
  },
  storedPod: {
    summary: 'A stored pod, over the nodes of one pool',
    value: { podRef: { namespace: 'default', name: 'web-1' }, labelSelector: 'pool=general' },
  },
  namedNodes: { summary: 'Only some nodes', value: { pod: { tolerations: [] }, nodeNames: ['node-1', 'node-4'] } },
};

export const FEASIBLE_NODES_ANSWER_EXAMPLE = {
  totalNodes: 5,
  feasibleCount: 2,
  message: '2/5 nodes are available: 1 node(s) were unschedulable, 2 node(s) had untolerated taint {dedicated: gpu}.',
  nodes: [
    { name: 'node-1', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } },
    { name: 'node-2', feasible: true, score: 0, scores: { TaintToleration: 0, NodeAffinity: 0 } },
    {
      name: 'node-3',
      feasible: false,
      reasons: [{ plugin: 'NodeUnschedulable', message: 'node(s) were unschedulable' }],
    },
    {
      name: 'node-4',
      feasible: false,
      reasons: [
        {
          plugin: 'TaintToleration',
          message: 'node(s) had untolerated taint {dedicated: gpu}',
          taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        },
      ],
    },
    {
      name: 'node-5',
      feasible: false,
      reasons: [
        {
          plugin: 'TaintToleration',
          message: 'node(s) had untolerated taint {dedicated: gpu}',
          taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        },
        { plugin: 'NodeResourcesFit', message: 'Insufficient cpu', resource: 'cpu' },
      ],
    },
  ],
};

export const TAINT_IMPACT_BODY_SCHEMA = {
  type: 'object',
  required: ['taints'],
  description:
    'The taints in `kubectl taint` syntax (`key=value:Effect` adds or overwrites, `key:Effect-` or `key-` removes), applied as ' +
    '`kubectl taint --overwrite` would, in memory only, to exactly one of `nodes`, `labelSelector` or `all: true`. New taints get ' +
    '`timeAdded = at`; unchanged ones keep theirs. A removal that matches nothing on a node is ignored there and reported in `warnings` ' +
    '(kubectl would refuse the whole command).',
  properties: {
    taints: { type: 'array', minItems: 1, items: { type: 'string' }, example: ['maintenance=true:NoExecute'] },
    nodes: { type: 'array', items: { type: 'string' }, example: ['node-1'] },
    labelSelector: { type: 'string', example: 'pool=batch' },
    all: { type: 'boolean' },
    at: {
      type: 'string',
      format: 'date-time',
      description: 'The instant to evaluate at (default: now). Eviction deadlines follow SEMANTICS A.3.',
    },
    summary: {
      type: 'boolean',
      description: 'Counts instead of lists: per node, per action, per workload, earliest/latest evictAt',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 5000,
      description: 'Page the lists: at most this many evictions + tolerating pods (evictions first)',
    },
    continue: {
      type: 'string',
      description:
        "The `continue` of the previous page (with the same body and limit); the page keeps the first page's `at`",
    },
  },
};

const POD_ON_NODE = { type: 'object', properties: { pod: POD_REF_SCHEMA, node: { type: 'string' } } };

export const TAINT_IMPACT_ANSWER_SCHEMA = {
  type: 'object',
  required: ['at', 'evictions', 'tolerating', 'unschedulablePending', 'schedulablePending', 'warnings'],
  properties: {
    at: { type: 'string', format: 'date-time' },
    evictions: {
      type: 'array',
      description:
        'Bound pods of the target nodes that the NoExecute rule would evict (SEMANTICS A.3), by node then pod',
      items: {
        type: 'object',
        properties: {
          pod: POD_REF_SCHEMA,
          node: { type: 'string' },
          action: {
            type: 'string',
            enum: ['EvictNow', 'EvictAfter'],
            description: 'EvictNow: an untolerated NoExecute taint, tolerationSeconds ≤ 0, or a deadline already past',
          },
          afterSeconds: { type: 'integer', description: 'Seconds from `at` until `evictAt` (0 for EvictNow)' },
          evictAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    tolerating: {
      type: 'array',
      items: POD_ON_NODE,
      description: 'Bound pods of the target nodes that would stay indefinitely',
    },
    unschedulablePending: {
      type: 'array',
      items: { type: 'object', properties: { pod: POD_REF_SCHEMA } },
      description: 'Pending pods that had a feasible node and would have none',
    },
    schedulablePending: {
      type: 'array',
      items: { type: 'object', properties: { pod: POD_REF_SCHEMA } },
      description: 'Pending pods that had no feasible node and would gain one',
    },
    warnings: { type: 'array', items: { type: 'string' } },
    continue: { type: 'string', description: 'Paged answers: the token for the next page, absent on the last one' },
    remainingItemCount: {
      type: 'integer',
      description: 'Paged answers: evictions and tolerating pods after this page',
    },
  },
};

const IMPACT_COUNTS = {
  evictNow: { type: 'integer' },
  evictAfter: { type: 'integer' },
  tolerating: { type: 'integer' },
  earliestEvictAt: { type: 'string', format: 'date-time', nullable: true },
  latestEvictAt: { type: 'string', format: 'date-time', nullable: true },
};

export const TAINT_IMPACT_SUMMARY_SCHEMA = {
  type: 'object',
  required: ['at', 'counts', 'byNode', 'byWorkload', 'warnings'],
  description: 'The answer to `summary: true`: the counts of the lists, without them',
  properties: {
    at: { type: 'string', format: 'date-time' },
    counts: {
      type: 'object',
      properties: {
        ...IMPACT_COUNTS,
        unschedulablePending: { type: 'integer' },
        schedulablePending: { type: 'integer' },
      },
    },
    byNode: {
      type: 'array',
      description: 'Target nodes with a bound pod, by name',
      items: { type: 'object', properties: { node: { type: 'string' }, ...IMPACT_COUNTS } },
    },
    byWorkload: {
      type: 'array',
      description: "By the pod's owner (kind, name); a pod without one counts as kind Pod under its own name",
      items: {
        type: 'object',
        properties: {
          namespace: { type: 'string' },
          kind: { type: 'string' },
          name: { type: 'string' },
          ...IMPACT_COUNTS,
        },
      },
    },
    warnings: { type: 'array', items: { type: 'string' } },
  },
};

export const TAINT_IMPACT_EXAMPLES = {
  drain: { summary: 'Maintenance on one node', value: { taints: ['maintenance=true:NoExecute'], nodes: ['node-1'] } },
  pool: {
    summary: 'Dedicate a pool, evaluated at a given instant',
    value: { taints: ['dedicated=batch:NoSchedule'], labelSelector: 'pool=batch', at: '2026-01-01T12:00:00Z' },
  },
  summary: {
    summary: 'Counts only, for a pool-wide drain',
    value: { taints: ['maintenance=true:NoExecute'], labelSelector: 'pool=search', summary: true },
  },
  paged: {
    summary: 'The lists 1,000 at a time',
    value: { taints: ['maintenance=true:NoExecute'], labelSelector: 'pool=search', limit: 1000 },
  },
  removal: { summary: 'Remove a taint from every node', value: { taints: ['dedicated-'], all: true } },
};

export const TAINT_IMPACT_ANSWER_EXAMPLE = {
  at: '2026-01-01T12:00:00.000Z',
  evictions: [
    {
      pod: { namespace: 'default', name: 'web-1' },
      node: 'node-1',
      action: 'EvictNow',
      afterSeconds: 0,
      evictAt: '2026-01-01T12:00:00.000Z',
    },
    {
      pod: { namespace: 'default', name: 'web-2' },
      node: 'node-1',
      action: 'EvictAfter',
      afterSeconds: 300,
      evictAt: '2026-01-01T12:05:00.000Z',
    },
  ],
  tolerating: [{ pod: { namespace: 'kube-system', name: 'fluentd-x1' }, node: 'node-1' }],
  unschedulablePending: [{ pod: { namespace: 'default', name: 'batch-7' } }],
  schedulablePending: [],
  warnings: [],
};

export const TOLERATION_MATCH_BODY_SCHEMA = {
  type: 'object',
  required: ['taints', 'tolerations'],
  properties: {
    taints: { type: 'array', items: TAINT_SCHEMA },
    tolerations: { type: 'array', items: TOLERATION_SCHEMA },
  },
};

export const TOLERATION_MATCH_EXAMPLES = {
  equal: {
    summary: 'Equal tolerates',
    value: {
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    },
  },
  noExecute: {
    summary: 'NoExecute with tolerationSeconds',
    value: {
      taints: [{ key: 'maintenance', value: 'true', effect: 'NoExecute' }],
      tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 }],
    },
  },
  gt: {
    summary: 'Gt (taint value above the toleration value; SEMANTICS A.1)',
    value: {
      taints: [{ key: 'sla', value: '950', effect: 'NoSchedule' }],
      tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoSchedule' }],
    },
  },
};

export const TOLERATION_MATCH_ANSWER_SCHEMA = {
  type: 'object',
  required: ['matches', 'schedulable', 'preferAvoid', 'eviction'],
  properties: {
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          taint: TAINT_SCHEMA,
          tolerated: { type: 'boolean' },
          tolerationIndex: { type: 'integer', description: 'The first toleration, in order, that tolerates the taint' },
        },
      },
    },
    schedulable: { type: 'boolean', description: 'false when a NoSchedule or NoExecute taint is untolerated' },
    preferAvoid: { type: 'boolean', description: 'true when a PreferNoSchedule taint is untolerated' },
    eviction: {
      type: 'object',
      description: 'What happens to a pod already running there (taints and binding fresh)',
      properties: {
        action: { type: 'string', enum: ['None', 'EvictNow', 'EvictAfter'] },
        afterSeconds: { type: 'integer' },
      },
    },
  },
};

export const TOLERATION_MATCH_ANSWER_EXAMPLE = {
  matches: [{ taint: { key: 'maintenance', value: 'true', effect: 'NoExecute' }, tolerated: true, tolerationIndex: 0 }],
  schedulable: true,
  preferAvoid: false,
  eviction: { action: 'EvictAfter', afterSeconds: 120 },
};
