import type { Table } from '../table';
import type { WatchEvent, WatchResource } from './watch-cache';

/** What every watched object has: the fields a watch filters and resumes by. */
export interface KubeObject {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; resourceVersion: string };
}

/**
 * One watched resource: how its objects are listed (the initial ADDED events), shown from a change, selected and
 * printed as a Table. The Kubernetes API services provide these (kube-watch.service.ts puts them together).
 */
export interface WatchedKind {
  kind: string;
  apiVersion: string;
  /** The field selectors the resource accepts (pkg/registry/.../strategy.go ToSelectableFields). */
  fields: string[];
  selectable(object: KubeObject): Record<string, string>;
  /** Every object now (of the namespace, when given), with its current version. */
  current(namespace: string | undefined): Promise<KubeObject[]>;
  /** The object of a change, as a Kubernetes object with the change's version. */
  show(object: WatchEvent['object']): KubeObject;
  table(objects: KubeObject[], include: string | undefined, meta: Table['metadata']): Table;
}

export type WatchedKinds = Record<WatchResource, WatchedKind>;

/** A deleted object of which only the name is known (a finished pod the snapshot no longer held). */
export function skeleton(kind: WatchedKind, event: WatchEvent): KubeObject {
  const namespace = event.namespace !== undefined && kind.kind !== 'Node' ? { namespace: event.namespace } : {};
  return {
    kind: kind.kind,
    apiVersion: kind.apiVersion,
    metadata: { name: event.name, ...namespace, resourceVersion: String(event.version) },
    spec: {},
    status: {},
  } as KubeObject;
}
