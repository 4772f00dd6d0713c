/**
 * The Kubernetes resources taintwise serves, once: legacy and aggregated discovery are both built from
 * this list, so a resource cannot be routed but undiscoverable (or the reverse).
 */
export interface ServedResource {
  group: '' | 'policy' | 'apps';
  version: 'v1';
  /** Plural, as in the path: `nodes`. */
  name: string;
  singularName: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources: Array<{ name: string; kind: string; group?: string; verbs: string[] }>;
}

const READ = ['get', 'list', 'watch'];

export const SERVED_RESOURCES: readonly ServedResource[] = [
  {
    group: '',
    version: 'v1',
    name: 'nodes',
    singularName: 'node',
    kind: 'Node',
    namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['no'],
    subresources: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] }],
  },
  {
    group: '',
    version: 'v1',
    name: 'pods',
    singularName: 'pod',
    kind: 'Pod',
    namespaced: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      { name: 'binding', kind: 'Binding', verbs: ['create'] },
      { name: 'eviction', kind: 'Eviction', group: 'policy', verbs: ['create'] },
    ],
  },
  {
    group: '',
    version: 'v1',
    name: 'namespaces',
    singularName: 'namespace',
    kind: 'Namespace',
    namespaced: false,
    verbs: ['get', 'list'],
    shortNames: ['ns'],
    subresources: [],
  },
  {
    group: '',
    version: 'v1',
    name: 'events',
    singularName: 'event',
    kind: 'Event',
    namespaced: true,
    verbs: READ,
    shortNames: ['ev'],
    subresources: [],
  },
  {
    group: 'policy',
    version: 'v1',
    name: 'poddisruptionbudgets',
    singularName: 'poddisruptionbudget',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['pdb'],
    subresources: [{ name: 'status', kind: 'PodDisruptionBudget', verbs: ['get'] }],
  },
  {
    // Only what `kubectl drain --ignore-daemonsets` asks: whether a pod's DaemonSet exists (derived from owners).
    group: 'apps',
    version: 'v1',
    name: 'daemonsets',
    singularName: 'daemonset',
    kind: 'DaemonSet',
    namespaced: true,
    verbs: ['get'],
    shortNames: ['ds'],
    subresources: [],
  },
];

export function resourcesOf(group: string, version: string): ServedResource[] {
  return SERVED_RESOURCES.filter((r) => r.group === group && r.version === version);
}
