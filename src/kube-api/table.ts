import type { KubeNode } from './node-object';
import { humanDuration } from './human-duration';

/**
 * Server-side printing (meta.k8s.io/v1 Table), what `kubectl get` asks for with
 * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`. Columns and cells follow
 * kubernetes pkg/printers/internalversion/printers.go (AddHandlers: nodeColumnDefinitions, printNode).
 */
export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string };
  columnDefinitions: TableColumn[];
  rows: Array<{ cells: unknown[]; object: unknown }>;
}

export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .some((p) => /as=Table/.test(p) && /g=meta\.k8s\.io/.test(p) && /v=v1(;|$)/.test(p.replace(/\s/g, '')));
}

const col = (name: string, type: string, description: string, priority = 0, format = ''): TableColumn => ({
  name,
  type,
  format,
  description,
  priority,
});

export const NODE_COLUMNS: TableColumn[] = [
  col('Name', 'string', 'Name must be unique within a namespace.', 0, 'name'),
  col('Status', 'string', 'The status of the node'),
  col('Roles', 'string', 'The roles of the node'),
  col('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  col('Version', 'string', 'Kubelet Version reported by the node.'),
  col('Internal-IP', 'string', 'List of internal IPs in the node.', 1),
  col('External-IP', 'string', 'List of external IPs in the node.', 1),
  col(
    'OS-Image',
    'string',
    'OS image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
    1,
  ),
  col('Kernel-Version', 'string', 'Kernel version reported by the node from `uname -r`.', 1),
  col('Container-Runtime', 'string', 'Container runtime version reported by the node.', 1),
];

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

/** printers.go printNode: Ready/NotReady/Unknown from the Ready condition, `,SchedulingDisabled` when cordoned. */
export function nodeStatusCell(node: KubeNode): string {
  const ready = node.status.conditions?.find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** printers.go findNodeRoles: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value, sorted. */
export function nodeRolesCell(node: KubeNode): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(ROLE_PREFIX) && key.length > ROLE_PREFIX.length) roles.add(key.slice(ROLE_PREFIX.length));
    else if (key === ROLE_LABEL && value !== '') roles.add(value);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

export function ageCell(creationTimestamp: string | undefined, now: Date): string {
  return creationTimestamp ? humanDuration(now.getTime() - Date.parse(creationTimestamp)) : '<unknown>';
}

/** A row's object: the whole object with `includeObject=Object`, else its metadata only (the default). */
export function rowObject(
  object: { kind: string; apiVersion: string; metadata: object },
  include: string | undefined,
): unknown {
  if (include === 'Object') return object;
  if (include === 'None') return undefined;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

export function nodeTable(nodes: KubeNode[], now: Date, include: string | undefined, meta: Table['metadata']): Table {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: NODE_COLUMNS,
    rows: nodes.map((n) => ({
      cells: [
        n.metadata.name,
        nodeStatusCell(n),
        nodeRolesCell(n),
        ageCell(n.metadata.creationTimestamp, now),
        '',
        '<none>',
        '<none>',
        '<unknown>',
        '<unknown>',
        '<unknown>',
      ],
      object: rowObject(n, include),
    })),
  };
}
