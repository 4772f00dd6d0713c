/**
 * The Kubernetes resources taintwise serves, once: legacy and aggregated discovery are both built from
 * this list, so a resource cannot be routed but undiscoverable (or the reverse).
 */
export interface ServedResource {
  group: '' | 'policy';
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
    subresources: [{ name: 'binding', kind: 'Binding', verbs: ['create'] }],
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
];

export function resourcesOf(group: string, version: string): ServedResource[] {
  return SERVED_RESOURCES.filter((r) => r.group === group && r.version === version);
}
