import type { PresentedBudget } from '../budgets/budget.service';
import { ageCell, rowObject, type Table, type TableColumn } from './table';

const col = (name: string, type: string, description: string, format = ''): TableColumn => ({
  name,
  type,
  format,
  description,
  priority: 0,
});

/** printers.go podDisruptionBudgetColumnDefinitions. */
export const BUDGET_COLUMNS: TableColumn[] = [
  col('Name', 'string', 'Name must be unique within a namespace.', 'name'),
  col('Min Available', 'string', 'The minimum number of pods that must be available.'),
  col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
  col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
  col('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
];

/** printers.go printPodDisruptionBudget: N/A for an unset bound. */
export function budgetTable(
  budgets: PresentedBudget[],
  now: Date,
  include: string | undefined,
  meta: Table['metadata'],
): Table {
  const bound = (value: unknown) => (value === undefined || value === null ? 'N/A' : String(value));
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: BUDGET_COLUMNS,
    rows: budgets.map((b) => ({
      cells: [
        b.metadata.name,
        bound(b.spec.minAvailable),
        bound(b.spec.maxUnavailable),
        b.status.disruptionsAllowed,
        ageCell(b.metadata.creationTimestamp, now),
      ],
      object: rowObject(b, include),
    })),
  };
}
