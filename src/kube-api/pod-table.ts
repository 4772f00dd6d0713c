import type { KubePod } from './pod-object';
import { ageCell, rowObject, type Table, type TableColumn } from './table';

const col = (name: string, description: string, priority = 0, format = ''): TableColumn => ({
  name,
  type: 'string',
  format,
  description,
  priority,
});

/** printers.go podColumnDefinitions. */
export const POD_COLUMNS: TableColumn[] = [
  col('Name', 'Name must be unique within a namespace.', 0, 'name'),
  col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
  col('Status', 'The aggregate status of the containers in this pod.'),
  col(
    'Restarts',
    'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
  ),
  col('Age', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  col('IP', 'IP address allocated to the pod.', 1),
  col('Node', 'Name of the node this pod is assigned to.', 1),
  col('Nominated Node', 'Name of the node that preemption decided this pod will run on.', 1),
  col('Readiness Gates', 'The readiness gates of this pod.', 1),
];

/**
 * printers.go printPod: READY counts ready containers (the one `main`, ready while Running); STATUS is the
 * reason, else the phase.
 */
export function podTable(pods: KubePod[], now: Date, include: string | undefined, meta: Table['metadata']): Table {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: POD_COLUMNS,
    rows: pods.map((p) => ({
      cells: [
        p.metadata.name,
        `${p.status.phase === 'Running' ? 1 : 0}/1`,
        p.status.reason ?? p.status.phase,
        '0',
        ageCell(p.metadata.creationTimestamp, now),
        '<none>',
        p.spec.nodeName ?? '<none>',
        '<none>',
        '<none>',
      ],
      object: rowObject(p, include),
    })),
  };
}
