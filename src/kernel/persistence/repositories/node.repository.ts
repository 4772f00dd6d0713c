import { Injectable } from '@nestjs/common';
import type { NodeCondition, ResourceList, Taint, TaintEffect } from '../../../domain/types';
import type { StoredNode } from '../../model/stored-objects';
import { Prisma } from '../../../generated/prisma/client';
import { json, type Db } from '../prisma-types';

/** What a write stores for a node: the stored node without the fields the database sets. */
export type NodeWrite = Omit<StoredNode, 'resourceVersion' | 'createdAt' | 'updatedAt'>;

const withTaints = { taints: { orderBy: { position: 'asc' as const } } };

/** The only place nodes and their taints touch Prisma. Returns StoredNode, never Prisma rows. */
@Injectable()
export class NodeRepository {
  async findByName(db: Db, name: string): Promise<StoredNode | undefined> {
    const row = await db.node.findUnique({ where: { name }, include: withTaints });
    return row ? toStoredNode(row) : undefined;
  }

  async findByNames(db: Db, names: readonly string[]): Promise<StoredNode[]> {
    const rows = await db.node.findMany({ where: { name: { in: [...names] } }, include: withTaints, orderBy: { name: 'asc' } });
    return rows.map(toStoredNode);
  }

  /** Every node, in pages of a few thousand (start-up snapshot load). */
  async findAll(db: Db, pageSize = 2000): Promise<StoredNode[]> {
    const all: StoredNode[] = [];
    let cursor: string | undefined;
    for (;;) {
      const rows = await db.node.findMany({
        include: withTaints, orderBy: { name: 'asc' }, take: pageSize,
        ...(cursor ? { cursor: { name: cursor }, skip: 1 } : {}),
      });
      all.push(...rows.map(toStoredNode));
      if (rows.length < pageSize) return all;
      cursor = rows[rows.length - 1].name;
    }
  }

  /**
   * Row locks on the named nodes, in name order (so two mutations over overlapping node sets cannot
   * deadlock): a mutation reads, decides and writes under them.
   */
  async lock(db: Db, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    await db.$queryRawUnsafe('SELECT name FROM nodes WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE', [...names]);
  }

  async create(db: Db, node: NodeWrite): Promise<StoredNode> {
    const row = await db.node.create({
      data: {
        name: node.name, labels: json(node.labels), unschedulable: node.unschedulable,
        conditions: json(node.conditions), allocatable: node.allocatable === null ? undefined : json(node.allocatable),
        taints: { create: node.taints.map((t, position) => taintRow(t, position)) },
      },
      include: withTaints,
    });
    return toStoredNode(row);
  }

  /**
   * Replaces a node and its taints; `expectedVersion` makes it conditional (optimistic concurrency).
   * Returns undefined when the node is gone or its version moved on.
   */
  async replace(db: Db, node: NodeWrite, expectedVersion?: string): Promise<StoredNode | undefined> {
    const where = expectedVersion === undefined ? { name: node.name } : { name: node.name, resourceVersion: Number(expectedVersion) };
    const updated = await db.node.updateMany({
      where,
      data: {
        labels: json(node.labels), unschedulable: node.unschedulable, conditions: json(node.conditions),
        allocatable: node.allocatable === null ? Prisma.DbNull : json(node.allocatable),
        resourceVersion: { increment: 1 },
      },
    });
    if (updated.count === 0) return undefined;
    await db.taint.deleteMany({ where: { nodeName: node.name } });
    if (node.taints.length) {
      await db.taint.createMany({ data: node.taints.map((t, position) => ({ nodeName: node.name, ...taintRow(t, position) })) });
    }
    return this.findByName(db, node.name);
  }

  async delete(db: Db, name: string): Promise<boolean> {
    const deleted = await db.node.deleteMany({ where: { name } });
    return deleted.count > 0;
  }
}

function taintRow(t: Taint, position: number) {
  return { key: t.key, value: t.value ?? '', effect: t.effect, timeAdded: t.timeAdded ?? new Date(), position };
}

type NodeRow = {
  name: string; labels: unknown; unschedulable: boolean; conditions: unknown; allocatable: unknown;
  resourceVersion: number; createdAt: Date; updatedAt: Date;
  taints: Array<{ key: string; value: string; effect: string; timeAdded: Date }>;
};

export function toStoredNode(row: NodeRow): StoredNode {
  return {
    name: row.name,
    labels: (row.labels ?? {}) as Record<string, string>,
    taints: row.taints.map((t) => ({ key: t.key, value: t.value, effect: t.effect as TaintEffect, timeAdded: t.timeAdded })),
    unschedulable: row.unschedulable,
    conditions: ((row.conditions ?? []) as Array<NodeCondition & { lastTransitionTime?: string }>).map((c) => ({
      ...c,
      ...(c.lastTransitionTime ? { lastTransitionTime: new Date(c.lastTransitionTime) } : {}),
    })),
    allocatable: (row.allocatable ?? null) as ResourceList | null,
    resourceVersion: String(row.resourceVersion),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
