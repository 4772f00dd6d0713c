import { toResourceVector } from '../../domain/resources/quantity';
import { schedulingSignature } from '../../domain/tolerations/taint-to-string';
import type { ResourceList, ResourceVector, SchedulingNode, Taint } from '../../domain/types';
import { reviveConditions, type StoredNode } from '../model/stored-objects';
import { flatJson } from './flat-json';

/**
 * One node as the snapshot keeps it: the scheduling view decisions read, and the rest of the stored node in
 * as few heap objects as will do (issue 16 (2)). The taint list (with `timeAdded`), the allocatable list and
 * its vector are shared by every node that has the same one; label values and names are interned; the
 * conditions and timestamps, which only the node's own reads need, are one JSON text. A full collection
 * marks each live object: the 5,000 bench nodes held as StoredNode objects were ~262,000 of them.
 */
export interface NodeRecord {
  readonly scheduling: SchedulingNode;
  /** The stored taints, `timeAdded` included (shared, frozen). */
  readonly taints: readonly Taint[];
  readonly allocatable: ResourceList | null;
  readonly resourceVersion: string;
  /** `[createdAt ms, updatedAt ms, conditions]` as JSON. */
  readonly rest: string;
}

/**
 * Past this many entries a table of shared values starts again: a live cluster's churn (a new timeAdded per
 * taint change) would otherwise grow it for ever. Records keep what they were given; only sharing is lost.
 */
const SHARED_CAP = 200_000;
const EMPTY_TAINTS: readonly Taint[] = Object.freeze([]);

/** Builds NodeRecords, sharing what nodes have in common, and gives back the StoredNode a record stands for. */
export class NodeRecords {
  private readonly strings = new Shared<string>();
  private readonly schedulingTaints = new Shared<readonly Taint[]>();
  private readonly storedTaints = new Shared<readonly Taint[]>();
  private readonly allocatables = new Shared<{ list: ResourceList; vector: ResourceVector }>();

  clear(): void {
    this.strings.clear();
    this.schedulingTaints.clear();
    this.storedTaints.clear();
    this.allocatables.clear();
  }

  /** `requested`: the node's bound pods' requests (kept and updated by the snapshot). */
  record(node: StoredNode, requested: ResourceVector): NodeRecord {
    const name = this.intern(node.name);
    const labels: Record<string, string> = {};
    for (const key of Object.keys(node.labels)) labels[key] = this.intern(node.labels[key]);
    const allocatable = this.allocatable(node.allocatable);
    return {
      scheduling: {
        name,
        labels,
        taints: this.schedulingTaintList(node.taints),
        unschedulable: node.unschedulable,
        allocatable: allocatable?.vector ?? null,
        requested,
      },
      taints: this.storedTaintList(node.taints),
      allocatable: allocatable?.list ?? null,
      resourceVersion: node.resourceVersion,
      rest: flatJson([node.createdAt.getTime(), node.updatedAt.getTime(), node.conditions]),
    };
  }

  /** The stored node again: a new object with new conditions and dates; labels, taints, allocatable shared. */
  stored(record: NodeRecord): StoredNode {
    const [createdAt, updatedAt, conditions] = JSON.parse(record.rest) as [number, number, unknown];
    return {
      name: record.scheduling.name,
      labels: record.scheduling.labels,
      taints: record.taints as Taint[],
      unschedulable: record.scheduling.unschedulable,
      conditions: reviveConditions(conditions),
      allocatable: record.allocatable,
      resourceVersion: record.resourceVersion,
      createdAt: new Date(createdAt),
      updatedAt: new Date(updatedAt),
    };
  }

  private intern(text: string): string {
    return this.strings.get(text, () => text);
  }

  /** Identical taint sets (by key, value, effect; timeAdded is not a scheduling input) share one frozen array. */
  private schedulingTaintList(taints: readonly Taint[]): readonly Taint[] {
    if (taints.length === 0) return EMPTY_TAINTS;
    return this.schedulingTaints.get(schedulingSignature(taints), () =>
      Object.freeze(taints.map((t) => Object.freeze({ key: t.key, value: t.value ?? '', effect: t.effect }))),
    );
  }

  /** Identical stored taint lists, `timeAdded` and `respectBudgets` included, share one frozen array. */
  private storedTaintList(taints: readonly Taint[]): readonly Taint[] {
    if (taints.length === 0) return EMPTY_TAINTS;
    return this.storedTaints.get(JSON.stringify(taints), () =>
      Object.freeze(taints.map((t) => Object.freeze({ ...t }))),
    );
  }

  private allocatable(list: ResourceList | null): { list: ResourceList; vector: ResourceVector } | undefined {
    if (list === null) return undefined;
    return this.allocatables.get(JSON.stringify(list), () => {
      const frozen = Object.freeze({ ...list });
      return { list: frozen, vector: Object.freeze(toResourceVector(frozen).vector) };
    });
  }
}

/** One value per key, made on first use; emptied past {@link SHARED_CAP} entries. */
class Shared<T> {
  private readonly byKey = new Map<string, T>();

  get(key: string, make: () => T): T {
    let value = this.byKey.get(key);
    if (value === undefined) {
      if (this.byKey.size >= SHARED_CAP) this.byKey.clear();
      value = make();
      this.byKey.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.byKey.clear();
  }
}
