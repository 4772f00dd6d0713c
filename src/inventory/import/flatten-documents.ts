/**
 * Decoded documents → taintwise nodes and pods, field by field from the Kubernetes objects
 * (k8s.io/api/core/v1 Node and Pod). Pure: `now` is a parameter.
 *
 * Only structure is checked here (types, required names); whether a taint's effect or a toleration's
 * operator is valid is the service's validators' call (SEMANTICS B.2). An item with a structural
 * problem is left out and reported; the others are imported.
 */
import { isObject, type Obj, describeValue } from './fields';
import type { ImportError } from './inventory-input';

/** A list item or single object with where it came from. */
export interface FlatItem {
  index: number;
  document: number;
  /** `items[3]` or `` for a single object. */
  path: string;
  value: unknown;
  /** The kind the enclosing list implies (`PodList` → `Pod`), if any. */
  listItemKind?: string;
}

const MAX_LIST_NESTING = 4;

/** Flattens Lists (also nested ones) and single objects into items. */
export function flatten(documents: readonly unknown[], errors: ImportError[]): FlatItem[] {
  const items: FlatItem[] = [];
  const visit = (value: unknown, document: number, path: string, listItemKind: string | undefined, depth: number) => {
    if (Array.isArray(value)) {
      if (depth >= MAX_LIST_NESTING) {
        errors.push({
          index: items.length,
          document,
          kind: 'List',
          field: path || undefined,
          message: `lists nested more than ${MAX_LIST_NESTING} deep`,
        });
        return;
      }
      value.forEach((item, i) => visit(item, document, `${path}[${i}]`, listItemKind, depth + 1));
      return;
    }
    if (isObject(value) && isList(value)) {
      const kind = typeof value.kind === 'string' ? value.kind : 'List';
      if (value.items !== undefined && value.items !== null && !Array.isArray(value.items)) {
        errors.push({
          index: items.length,
          document,
          kind,
          field: join(path, 'items'),
          message: `items must be an array, not ${describeValue(value.items)}`,
        });
        return;
      }
      const itemKind = kind !== 'List' && kind.endsWith('List') ? kind.slice(0, -'List'.length) : undefined;
      if (depth >= MAX_LIST_NESTING) {
        errors.push({
          index: items.length,
          document,
          kind,
          field: path || undefined,
          message: `lists nested more than ${MAX_LIST_NESTING} deep`,
        });
        return;
      }
      ((value.items as unknown[] | null | undefined) ?? []).forEach((item, i) =>
        visit(item, document, join(path, `items[${i}]`), itemKind, depth + 1),
      );
      return;
    }
    items.push({ index: items.length, document, path, value, listItemKind });
  };
  documents.forEach((doc, document) => {
    if (isObject(doc) || Array.isArray(doc)) visit(doc, document, '', undefined, 0);
    else
      errors.push({
        index: items.length,
        document,
        kind: 'Document',
        message: `document ${document + 1} is ${describeValue(doc)}; expected a Kubernetes object`,
      });
  });
  return items;
}

export function join(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

function isList(obj: Obj): boolean {
  if (typeof obj.kind === 'string') return obj.kind.endsWith('List');
  // No kind: a list when it has items and is not itself an object with a spec (a kind-less Node or Pod).
  return 'items' in obj && !isObject(obj.spec);
}

/** The kind of an item: its own `kind`, else the one its list implies, else guessed from its shape. */
export function itemKind(value: Obj, listItemKind?: string): string | undefined {
  if (typeof value.kind === 'string' && value.kind !== '') return value.kind;
  if (listItemKind) return listItemKind;
  const spec = isObject(value.spec) ? value.spec : {};
  const status = isObject(value.status) ? value.status : {};
  if (Array.isArray(spec.containers)) return 'Pod';
  if (
    'taints' in spec ||
    'podCIDR' in spec ||
    'providerID' in spec ||
    'unschedulable' in spec ||
    isObject(status.nodeInfo) ||
    isObject(status.allocatable)
  )
    return 'Node';
  return undefined;
}
