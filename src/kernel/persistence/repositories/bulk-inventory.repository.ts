import { Injectable } from '@nestjs/common';
import type { Taint, TaintEffect } from '../../../domain/types';
import type { StoredNode, StoredPod } from '../../model/stored-objects';
import type { NodeWrite } from './node.repository';
import type { PodWrite } from './pod.repository';
import type { Db } from '../prisma-types';

/** Rows per statement: big enough to amortise round trips, small enough for statement_timeout. */
const CHUNK = 5000;

/** What the database already holds for a pod the import names. */
export interface ExistingPodRow {
  namespace: string;
  name: string;
  uid: string;
  nodeName: string | null;
  phase: string;
  usesComparisonOperators: boolean;
}

/**
 * Set-based writes for `POST /v1/import` (5,000 nodes and 150,000 pods in seconds, not one Prisma
 * call per object): every statement takes whole columns as arrays (`unnest($1::text[], ...)`), so a
 * chunk of thousands of rows is one round trip and never hits the 65,535 bind-parameter limit.
 * Upserts by name / (namespace, name) with `INSERT ... ON CONFLICT DO UPDATE`; `xmax = 0` tells a
 * fresh row from an updated one. Like NodeRepository and PodRepository it returns StoredNode /
 * StoredPod, never rows, and runs inside the caller's transaction.
 */
@Injectable()
export class BulkInventoryRepository {
  /** The stored taints of the named nodes (for keeping `timeAdded` of unchanged taints). */
  async taintsOf(db: Db, names: readonly string[]): Promise<Map<string, Taint[]>> {
    const out = new Map<string, Taint[]>();
    for (const chunk of chunks(names, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ node_name: string; key: string; value: string; effect: string; time_added: Date | string }>>(
        'SELECT node_name, key, value, effect::text AS effect, time_added FROM taints WHERE node_name = ANY($1::text[]) ORDER BY node_name, position',
        [...chunk],
      );
      for (const r of rows) {
        let list = out.get(r.node_name);
        if (!list) out.set(r.node_name, (list = []));
        list.push({ key: r.key, value: r.value, effect: r.effect as TaintEffect, timeAdded: toDate(r.time_added) });
      }
    }
    return out;
  }

  /** Which of the names are stored nodes. */
  async existingNodeNames(db: Db, names: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const chunk of chunks(names, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ name: string }>>('SELECT name FROM nodes WHERE name = ANY($1::text[])', [...chunk]);
      for (const r of rows) out.add(r.name);
    }
    return out;
  }

  /** Creates or replaces nodes and their taints (already stamped). Answers the stored nodes and which were created. */
  async upsertNodes(db: Db, nodes: readonly NodeWrite[], now: Date): Promise<Array<{ node: StoredNode; created: boolean }>> {
    const out: Array<{ node: StoredNode; created: boolean }> = [];
    for (const chunk of chunks(nodes, CHUNK)) {
      const rows = await db.$queryRawUnsafe<Array<{ name: string; resource_version: number; created_at: Date | string; updated_at: Date | string; inserted: boolean }>>(
        `INSERT INTO nodes (name, labels, unschedulable, conditions, allocatable, resource_version, created_at, updated_at)
         SELECT t.name, t.labels::jsonb, t.unschedulable, t.conditions::jsonb, t.allocatable::jsonb, 1, $6::timestamptz, $6::timestamptz
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[]) AS t(name, labels, unschedulable, conditions, allocatable)
         ON CONFLICT (name) DO UPDATE SET labels = EXCLUDED.labels, unschedulable = EXCLUDED.unschedulable, conditions = EXCLUDED.conditions,
           allocatable = EXCLUDED.allocatable, resource_version = nodes.resource_version + 1, updated_at = EXCLUDED.updated_at
         RETURNING name, resource_version, created_at, updated_at, (xmax = 0) AS inserted`,
        chunk.map((n) => n.name),
        chunk.map((n) => JSON.stringify(n.labels)),
        chunk.map((n) => n.unschedulable),
        chunk.map((n) => JSON.stringify(n.conditions)),
        chunk.map((n) => (n.allocatable === null ? null : JSON.stringify(n.allocatable))),
        now.toISOString(),
      );
      const byName = new Map(rows.map((r) => [r.name, r]));
      for (const n of chunk) {
        const r = byName.get(n.name)!;
        out.push({
          created: r.inserted === true || (r.inserted as unknown) === 't',
          node: {
            name: n.name, labels: n.labels, taints: n.taints, unschedulable: n.unschedulable, conditions: n.conditions, allocatable: n.allocatable,
            resourceVersion: String(r.resource_version), createdAt: toDate(r.created_at), updatedAt: toDate(r.updated_at),
          },
        });
      }
    }
    const taints = nodes.flatMap((n) => n.taints.map((t, position) => ({ node: n.name, t, position })));
    for (const chunk of chunks(nodes, CHUNK * 4)) {
      await db.$executeRawUnsafe('DELETE FROM taints WHERE node_name = ANY($1::text[])', chunk.map((n) => n.name));
    }
    for (const chunk of chunks(taints, CHUNK)) {
      await db.$executeRawUnsafe(
        `INSERT INTO taints (node_name, key, value, effect, time_added, position)
         SELECT t.node_name, t.key, t.value, t.effect::"TaintEffect", t.time_added, t.position
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[]) AS t(node_name, key, value, effect, time_added, position)`,
        chunk.map((x) => x.node),
        chunk.map((x) => x.t.key),
        chunk.map((x) => x.t.value ?? ''),
        chunk.map((x) => x.t.effect),
        chunk.map((x) => (x.t.timeAdded ?? now).toISOString()),
        chunk.map((x) => x.position),
      );
    }
    return out;
  }

  /** The stored pods among the given keys. */
  async existingPods(db: Db, keys: ReadonlyArray<{ namespace: string; name: string }>): Promise<Map<string, ExistingPodRow>> {
    const out = new Map<string, ExistingPodRow>();
    for (const chunk of chunks(keys, CHUNK * 2)) {
      const rows = await db.$queryRawUnsafe<Array<{ namespace: string; name: string; uid: string; node_name: string | null; phase: string; comparison: boolean }>>(
        `SELECT p.namespace, p.name, p.uid, p.node_name, p.phase,
                (p.tolerations::text LIKE '%"operator": "Gt"%' OR p.tolerations::text LIKE '%"operator": "Lt"%') AS comparison
         FROM pods p JOIN unnest($1::text[], $2::text[]) AS k(namespace, name) ON p.namespace = k.namespace AND p.name = k.name`,
        chunk.map((k) => k.namespace),
        chunk.map((k) => k.name),
      );
      for (const r of rows) {
        out.set(`${r.namespace}/${r.name}`, { namespace: r.namespace, name: r.name, uid: r.uid, nodeName: r.node_name, phase: r.phase, usesComparisonOperators: r.comparison === true });
      }
    }
    return out;
  }

  /** Pods holding any of the uids: `uid → namespace/name`. */
  async podKeysByUid(db: Db, uids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const chunk of chunks(uids, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ uid: string; namespace: string; name: string }>>('SELECT uid, namespace, name FROM pods WHERE uid = ANY($1::text[])', [...chunk]);
      for (const r of rows) out.set(r.uid, `${r.namespace}/${r.name}`);
    }
    return out;
  }

  /**
   * Creates or replaces pods. A replaced pod keeps the uid it was first stored with (eviction rows
   * refer to it). Answers the stored pods and which were created.
   */
  async upsertPods(db: Db, pods: readonly PodWrite[], now: Date): Promise<Array<{ pod: StoredPod; created: boolean }>> {
    const out: Array<{ pod: StoredPod; created: boolean }> = [];
    for (const chunk of chunks(pods, CHUNK)) {
      const rows = await db.$queryRawUnsafe<Array<{ namespace: string; name: string; uid: string; resource_version: number; created_at: Date | string; updated_at: Date | string; inserted: boolean }>>(
        `INSERT INTO pods (id, namespace, name, uid, node_name, phase, bound_at, tolerations, node_selector, affinity, priority,
                           owner_kind, owner_name, resources, requests, host_network, resource_version, created_at, updated_at)
         SELECT gen_random_uuid(), t.namespace, t.name, t.uid, t.node_name, t.phase, t.bound_at, t.tolerations::jsonb, t.node_selector::jsonb,
                t.affinity::jsonb, t.priority, t.owner_kind, t.owner_name, t.resources::jsonb, t.requests::jsonb, t.host_network, 1,
                $16::timestamptz, $16::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::text[],
                     $10::int[], $11::text[], $12::text[], $13::text[], $14::text[], $15::boolean[])
              AS t(namespace, name, uid, node_name, phase, bound_at, tolerations, node_selector, affinity, priority, owner_kind, owner_name, resources, requests, host_network)
         ON CONFLICT (namespace, name) DO UPDATE SET node_name = EXCLUDED.node_name, phase = EXCLUDED.phase, bound_at = EXCLUDED.bound_at,
           tolerations = EXCLUDED.tolerations, node_selector = EXCLUDED.node_selector, affinity = EXCLUDED.affinity, priority = EXCLUDED.priority,
           owner_kind = EXCLUDED.owner_kind, owner_name = EXCLUDED.owner_name, resources = EXCLUDED.resources, requests = EXCLUDED.requests,
           host_network = EXCLUDED.host_network, resource_version = pods.resource_version + 1, updated_at = EXCLUDED.updated_at
         RETURNING namespace, name, uid, resource_version, created_at, updated_at, (xmax = 0) AS inserted`,
        chunk.map((p) => p.namespace),
        chunk.map((p) => p.name),
        chunk.map((p) => p.uid),
        chunk.map((p) => p.nodeName),
        chunk.map((p) => p.phase),
        chunk.map((p) => (p.boundAt ? p.boundAt.toISOString() : null)),
        chunk.map((p) => JSON.stringify(p.tolerations)),
        chunk.map((p) => JSON.stringify(p.nodeSelector)),
        chunk.map((p) => (p.affinity === null ? null : JSON.stringify(p.affinity))),
        chunk.map((p) => p.priority),
        chunk.map((p) => p.owner?.kind ?? null),
        chunk.map((p) => p.owner?.name ?? null),
        chunk.map((p) => JSON.stringify(p.resources)),
        chunk.map((p) => JSON.stringify(p.requests)),
        chunk.map((p) => p.hostNetwork),
        now.toISOString(),
      );
      const byKey = new Map(rows.map((r) => [`${r.namespace}/${r.name}`, r]));
      for (const p of chunk) {
        const r = byKey.get(`${p.namespace}/${p.name}`)!;
        out.push({
          created: r.inserted === true || (r.inserted as unknown) === 't',
          pod: { ...p, uid: r.uid, resourceVersion: String(r.resource_version), createdAt: toDate(r.created_at), updatedAt: toDate(r.updated_at) },
        });
      }
    }
    return out;
  }
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
