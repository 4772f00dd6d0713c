import { Injectable } from '@nestjs/common';
import type { ResourceList, Taint, TaintEffect } from '../../../domain/types';
import { reviveConditions, type StoredNode } from '../../model/stored-objects';
import { Prisma } from '../../../generated/prisma/client';
import { json, type Db } from '../prisma-types';
import { CHUNK, chunks, toDate } from './sql-batches';

/** What a write stores for a node: the stored node without the fields the database sets. */
export type NodeWrite = Omit<StoredNode, 'resourceVersion' | 'createdAt' | 'updatedAt'>;

const withTaints = { taints: { orderBy: { position: 'asc' as const } } };

/**
 * The only reader and writer of nodes and their taints: single nodes through Prisma, and set-based writes
 * for imports and taint mutations over many nodes. Returns StoredNode, never Prisma rows.
 */
@Injectable()
export class NodeRepository {
  async findByName(db: Db, name: string): Promise<StoredNode | undefined> {
    const row = await db.node.findUnique({ where: { name }, include: withTaints });
    return row ? toStoredNode(row) : undefined;
  }

  /**
   * The named nodes that exist, in name order (the database's), in plain SQL: the eviction sweep and every taint
   * mutation read nodes here. As a Prisma query, its plan was compiled on first use in each process (~25-36 ms of the
   * service's thread, inside the first sweep or taint after start-up).
   */
  async findByNames(db: Db, names: readonly string[]): Promise<StoredNode[]> {
    if (names.length === 0) return [];
    const rows = await db.$queryRawUnsafe<NodeTextRow[]>(
      `SELECT name, labels::text AS labels, unschedulable, conditions::text AS conditions, allocatable::text AS allocatable,
              resource_version::text AS resource_version, created_at, updated_at
       FROM nodes WHERE name = ANY($1::text[]) ORDER BY name`,
      [...names],
    );
    if (rows.length === 0) return [];
    const taints = await this.taintsOf(
      db,
      rows.map((r) => r.name),
    );
    // taintsOf gives each node's taints in position order, already as StoredNode holds them
    return rows.map((r) => ({
      ...toStoredNode({
        name: r.name,
        labels: JSON.parse(r.labels),
        taints: [],
        unschedulable: r.unschedulable,
        conditions: JSON.parse(r.conditions),
        allocatable: r.allocatable === null ? null : JSON.parse(r.allocatable),
        resourceVersion: r.resource_version,
        createdAt: toDate(r.created_at),
        updatedAt: toDate(r.updated_at),
      }),
      taints: taints.get(r.name) ?? [],
    }));
  }

  /** Every node's name and labels, by name (what a label selector needs, without taints). */
  async namesAndLabels(db: Db): Promise<Array<{ name: string; labels: Record<string, string> }>> {
    const rows = await db.node.findMany({ select: { name: true, labels: true }, orderBy: { name: 'asc' } });
    return rows.map((r) => ({ name: r.name, labels: (r.labels ?? {}) as Record<string, string> }));
  }

  /** Every node, in pages of a few thousand (start-up snapshot load). */
  async findAll(db: Db, pageSize = 2000): Promise<StoredNode[]> {
    const all: StoredNode[] = [];
    let cursor: string | undefined;
    for (;;) {
      const rows = await db.node.findMany({
        include: withTaints,
        orderBy: { name: 'asc' },
        take: pageSize,
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
  /**
   * Locks what it can of these nodes without waiting (`FOR UPDATE SKIP LOCKED`, in name order); answers the
   * nodes it holds plus those that no longer exist (nothing writes their pods, so they need no lock).
   */
  async lockAvailable(db: Db, names: readonly string[]): Promise<string[]> {
    const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
      'SELECT name FROM nodes WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE SKIP LOCKED',
      [...names],
    );
    const held = rows.map((r) => r.name);
    if (held.length === names.length) return held;
    const heldSet = new Set(held);
    const others = names.filter((n) => !heldSet.has(n));
    const existing = await db.$queryRawUnsafe<Array<{ name: string }>>(
      'SELECT name FROM nodes WHERE name = ANY($1::text[])',
      others,
    );
    const exist = new Set(existing.map((r) => r.name));
    return [...held, ...others.filter((n) => !exist.has(n))];
  }

  async lock(db: Db, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    await db.$queryRawUnsafe('SELECT name FROM nodes WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE', [
      ...names,
    ]);
  }

  async create(db: Db, node: NodeWrite): Promise<StoredNode> {
    const row = await db.node.create({
      data: {
        name: node.name,
        labels: json(node.labels),
        unschedulable: node.unschedulable,
        conditions: json(node.conditions),
        allocatable: node.allocatable === null ? undefined : json(node.allocatable),
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
    const where =
      expectedVersion === undefined
        ? { name: node.name }
        : { name: node.name, resourceVersion: Number(expectedVersion) };
    const updated = await db.node.updateMany({
      where,
      data: {
        labels: json(node.labels),
        unschedulable: node.unschedulable,
        conditions: json(node.conditions),
        allocatable: node.allocatable === null ? Prisma.DbNull : json(node.allocatable),
        resourceVersion: { increment: 1 },
      },
    });
    if (updated.count === 0) return undefined;
    await db.taint.deleteMany({ where: { nodeName: node.name } });
    if (node.taints.length) {
      await db.taint.createMany({
        data: node.taints.map((t, position) => ({ nodeName: node.name, ...taintRow(t, position) })),
      });
    }
    return this.findByName(db, node.name);
  }

  async delete(db: Db, name: string): Promise<boolean> {
    const deleted = await db.node.deleteMany({ where: { name } });
    return deleted.count > 0;
  }

  /** The stored taints of the named nodes (for keeping `timeAdded` of unchanged taints). */
  async taintsOf(db: Db, names: readonly string[]): Promise<Map<string, Taint[]>> {
    const out = new Map<string, Taint[]>();
    for (const chunk of chunks(names, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<
        Array<{
          node_name: string;
          key: string;
          value: string;
          effect: string;
          time_added: Date | string;
          respect_budgets: boolean;
        }>
      >(
        'SELECT node_name, key, value, effect::text AS effect, time_added, respect_budgets FROM taints WHERE node_name = ANY($1::text[]) ORDER BY node_name, position',
        [...chunk],
      );
      for (const r of rows) {
        let list = out.get(r.node_name);
        if (!list) out.set(r.node_name, (list = []));
        list.push({
          key: r.key,
          value: r.value,
          effect: r.effect as TaintEffect,
          timeAdded: toDate(r.time_added),
          ...(r.respect_budgets ? { respectBudgets: true as const } : {}),
        });
      }
    }
    return out;
  }

  /** Which of the names are stored nodes. */
  async existingNodeNames(db: Db, names: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const chunk of chunks(names, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
        'SELECT name FROM nodes WHERE name = ANY($1::text[])',
        [...chunk],
      );
      for (const r of rows) out.add(r.name);
    }
    return out;
  }
  /** Which of the names are cluster-owned (mirrored) nodes. */
  async clusterOwned(db: Db, names: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const chunk of chunks(names, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
        "SELECT name FROM nodes WHERE name = ANY($1::text[]) AND origin = 'cluster' ORDER BY name",
        [...chunk],
      );
      out.push(...rows.map((r) => r.name));
    }
    return out;
  }

  /** Every cluster-owned node's name (what a relist compares the cluster's list with). */
  async clusterNodeNames(db: Db): Promise<string[]> {
    const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
      "SELECT name FROM nodes WHERE origin = 'cluster' ORDER BY name",
    );
    return rows.map((r) => r.name);
  }

  /**
   * Creates or replaces nodes and their taints (already stamped). Answers the stored nodes and which were created.
   * `origin` 'cluster' marks them the mirrored cluster's in the same statement; without it a new node is `local`
   * and a replaced one keeps its origin.
   */
  async upsertNodes(
    db: Db,
    nodes: readonly NodeWrite[],
    now: Date,
    origin?: 'cluster',
  ): Promise<Array<{ node: StoredNode; created: boolean }>> {
    const out: Array<{ node: StoredNode; created: boolean }> = [];
    for (const chunk of chunks(nodes, CHUNK)) {
      const rows = await db.$queryRawUnsafe<
        Array<{
          name: string;
          resource_version: number;
          created_at: Date | string;
          updated_at: Date | string;
          inserted: boolean;
        }>
      >(
        `INSERT INTO nodes (name, labels, unschedulable, conditions, allocatable, resource_version, created_at, updated_at, origin)
         SELECT t.name, t.labels::jsonb, t.unschedulable, t.conditions::jsonb, t.allocatable::jsonb, 1, $6::timestamptz, $6::timestamptz,
                COALESCE($7::text, 'local')
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[]) AS t(name, labels, unschedulable, conditions, allocatable)
         ON CONFLICT (name) DO UPDATE SET labels = EXCLUDED.labels, unschedulable = EXCLUDED.unschedulable, conditions = EXCLUDED.conditions,
           allocatable = EXCLUDED.allocatable, resource_version = nodes.resource_version + 1, updated_at = EXCLUDED.updated_at,
           origin = COALESCE($7::text, nodes.origin)
         RETURNING name, resource_version, created_at, updated_at, (xmax = 0) AS inserted`,
        chunk.map((n) => n.name),
        chunk.map((n) => JSON.stringify(n.labels)),
        chunk.map((n) => n.unschedulable),
        chunk.map((n) => JSON.stringify(n.conditions)),
        chunk.map((n) => (n.allocatable === null ? null : JSON.stringify(n.allocatable))),
        now.toISOString(),
        origin ?? null,
      );
      const byName = new Map(rows.map((r) => [r.name, r]));
      for (const n of chunk) {
        const r = byName.get(n.name)!;
        out.push({
          created: r.inserted === true || (r.inserted as unknown) === 't',
          node: {
            name: n.name,
            labels: n.labels,
            taints: n.taints,
            unschedulable: n.unschedulable,
            conditions: n.conditions,
            allocatable: n.allocatable,
            resourceVersion: String(r.resource_version),
            createdAt: toDate(r.created_at),
            updatedAt: toDate(r.updated_at),
          },
        });
      }
    }
    await this.rewriteTaints(db, nodes, now);
    return out;
  }

  /**
   * Writes new taints for many nodes in three statements, whatever the number of nodes: bump the
   * nodes' resourceVersion, delete their taints, insert the new ones (one array parameter per
   * column). `replace` does the same for one node in five round trips, which made a
   * `POST /v1/taints` over 100 nodes cost 500 round trips inside its transaction. Only the taints
   * change here (labels, conditions, allocatable stay), which is all `kubectl taint` changes.
   * The caller holds the nodes' locks. Returns the nodes as stored, in name order.
   */
  async replaceTaints(db: Db, nodes: readonly StoredNode[], now: Date): Promise<StoredNode[]> {
    if (nodes.length === 0) return [];
    const names = nodes.map((n) => n.name);
    const updated = await db.$executeRawUnsafe(
      'UPDATE nodes SET resource_version = resource_version + 1, updated_at = $2::timestamptz WHERE name = ANY($1::text[])',
      names,
      now.toISOString(),
    );
    if (updated !== names.length) return [];
    await this.rewriteTaints(db, nodes, now);
    return this.findByNames(db, names);
  }

  /** Deletes the nodes' taints and inserts the given ones, one array parameter per column. */
  private async rewriteTaints(db: Db, nodes: readonly Pick<StoredNode, 'name' | 'taints'>[], now: Date): Promise<void> {
    for (const chunk of chunks(nodes, CHUNK * 4)) {
      await db.$executeRawUnsafe(
        'DELETE FROM taints WHERE node_name = ANY($1::text[])',
        chunk.map((n) => n.name),
      );
    }
    const taints = nodes.flatMap((n) => n.taints.map((t, position) => ({ node: n.name, t, position })));
    for (const chunk of chunks(taints, CHUNK)) {
      await db.$executeRawUnsafe(
        // text[] then a cast per row: the embedded adapter cannot send an array of an enum type
        `INSERT INTO taints (node_name, key, value, effect, time_added, position, respect_budgets)
         SELECT t.node_name, t.key, t.value, t.effect::"TaintEffect", t.time_added, t.position, t.respect_budgets
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[], $7::boolean[])
           AS t(node_name, key, value, effect, time_added, position, respect_budgets)`,
        chunk.map((x) => x.node),
        chunk.map((x) => x.t.key),
        chunk.map((x) => x.t.value ?? ''),
        chunk.map((x) => x.t.effect),
        chunk.map((x) => (x.t.timeAdded ?? now).toISOString()),
        chunk.map((x) => x.position),
        chunk.map((x) => x.t.respectBudgets === true),
      );
    }
  }
}

function taintRow(t: Taint, position: number) {
  return {
    key: t.key,
    value: t.value ?? '',
    effect: t.effect,
    timeAdded: t.timeAdded ?? new Date(),
    position,
    respectBudgets: t.respectBudgets === true,
  };
}

/** A node row as plain SQL reads it: the JSON columns as text, the version as text. */
interface NodeTextRow {
  name: string;
  labels: string;
  unschedulable: boolean;
  conditions: string;
  allocatable: string | null;
  resource_version: string;
  created_at: Date | string;
  updated_at: Date | string;
}

type NodeRow = {
  name: string;
  labels: unknown;
  unschedulable: boolean;
  conditions: unknown;
  allocatable: unknown;
  resourceVersion: number | string;
  createdAt: Date;
  updatedAt: Date;
  taints: Array<{ key: string; value: string; effect: string; timeAdded: Date; respectBudgets?: boolean }>;
};

export function toStoredNode(row: NodeRow): StoredNode {
  return {
    name: row.name,
    labels: (row.labels ?? {}) as Record<string, string>,
    taints: row.taints.map((t) => ({
      key: t.key,
      value: t.value,
      effect: t.effect as TaintEffect,
      timeAdded: t.timeAdded,
      ...(t.respectBudgets ? { respectBudgets: true as const } : {}),
    })),
    unschedulable: row.unschedulable,
    conditions: reviveConditions(row.conditions),
    allocatable: (row.allocatable ?? null) as ResourceList | null,
    resourceVersion: String(row.resourceVersion),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
