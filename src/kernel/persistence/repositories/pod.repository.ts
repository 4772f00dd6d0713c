import { Injectable } from '@nestjs/common';
import type { Affinity, PodResources, ResourceVector, Toleration } from '../../../domain/types';
import type { PodPhase, PodToPlan, StoredPod } from '../../model/stored-objects';
import { JsonInterner, POD_COLUMNS, POD_RECORD_SEP, POD_TEXT, podsFromTexts } from './pod-rows';
import { POD_TO_PLAN_TEXT, podsToPlanFromTexts } from './pod-plan-rows';
import { Prisma } from '../../../generated/prisma/client';
import { json, type Db } from '../prisma-types';
import { SharedJson } from './shared-json';
import { CHUNK, chunks, toDate } from './sql-batches';

/** What a write stores for a pod: the stored pod without the fields the database sets. */
export type PodWrite = Omit<StoredPod, 'resourceVersion' | 'createdAt' | 'updatedAt'>;

/** What the database already holds for a pod the import names. */
export interface ExistingPodRow {
  namespace: string;
  name: string;
  uid: string;
  nodeName: string | null;
  phase: string;
  usesComparisonOperators: boolean;
}

export interface PodListFilter {
  namespace?: string;
  nodeName?: string;
  phase?: string;
}

const ACTIVE = ['Pending', 'Running'];
/** The active pods bound to any of the nodes named by $1 (a text array). */
const ACTIVE_ON_NODES = `node_name = ANY($1::text[]) AND phase IN ('Pending', 'Running')`;
/** The order of pod lists: the (namespace, name) unique index's. */
const BY_KEY = 'namespace, name';

/** The only place pods touch Prisma. Returns StoredPod, never Prisma rows. */
@Injectable()
export class PodRepository {
  async findByKey(db: Db, namespace: string, name: string): Promise<StoredPod | undefined> {
    const row = await db.pod.findUnique({ where: { namespace_name: { namespace, name } } });
    return row ? toStoredPod(row) : undefined;
  }

  /**
   * Active pods bound to any of the nodes, for the mutation that re-decides their evictions (the
   * caller holds the nodes' locks). Plain SQL in the caller's transaction: a NoExecute taint over 100
   * full nodes reads 11,000 pods, and Prisma's row mapping was most of its time (`pod-rows.ts`).
   */
  async findActiveOnNodes(db: Db, nodeNames: readonly string[]): Promise<StoredPod[]> {
    if (nodeNames.length === 0) return [];
    return this.podsWhere(db, ACTIVE_ON_NODES, BY_KEY, [[...nodeNames]]);
  }

  /**
   * `findActiveOnNodes` with only what the eviction planner decides from (`PodToPlan`), in the same order; the
   * planner reads the whole pods of the ones it evicts at once. For a taint's planner call over many full nodes:
   * the other columns were most of the read's work (`pod-plan-rows.ts`).
   */
  async findToPlanOnNodes(db: Db, nodeNames: readonly string[]): Promise<PodToPlan[]> {
    if (nodeNames.length === 0) return [];
    const texts = await this.podTexts(db, POD_TO_PLAN_TEXT, ACTIVE_ON_NODES, BY_KEY, [[...nodeNames]]);
    return podsToPlanFromTexts(texts, new JsonInterner(), columnsById(db));
  }

  /** Every active pod, in pages (start-up snapshot load). */
  async findAllActive(db: Db, pageSize = 5000): Promise<StoredPod[]> {
    const all: StoredPod[] = [];
    let cursor: string | undefined;
    for (;;) {
      const rows = await db.pod.findMany({
        where: { phase: { in: ACTIVE } },
        orderBy: { id: 'asc' },
        take: pageSize,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      for (const r of rows) all.push(toStoredPod(r));
      if (rows.length < pageSize) return all;
      cursor = rows[rows.length - 1].id;
    }
  }

  /**
   * One page in (namespace, name) order after `after`. The keyset is read as index ranges — the rest of the
   * namespace, then the namespaces after it — rather than one `namespace > a OR (namespace = a AND name > b)`, which
   * PostgreSQL answers by scanning the index from its start: page 300 of 150,000 pods read 150,000 rows.
   */
  async list(
    db: Db,
    filter: PodListFilter,
    limit: number,
    after?: { namespace: string; name: string },
  ): Promise<StoredPod[]> {
    // Plain SQL, one text value per row (POD_TEXT): a page of `GET /api/v1/pods` is what a mirror's initial sync
    // (and `kubectl get pods -A`) reads 150 times over at 150,000 pods, and Prisma's findMany, which maps every
    // value of every row, took most of the cluster's time serving it on PGlite (bench/ANALYSIS.md, issue 14).
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where: string[] = [];
    if (filter.namespace !== undefined) where.push(`namespace = ${param(filter.namespace)}`);
    if (filter.nodeName !== undefined) where.push(`node_name = ${param(filter.nodeName)}`);
    if (filter.phase !== undefined) where.push(`phase = ${param(filter.phase)}`);
    // keyset paging on the (namespace, name) unique index, as the continue token names the last pod of a page
    if (after) where.push(`(namespace, name) > (${param(after.namespace)}, ${param(after.name)})`);
    const clause = `${where.length ? where.join(' AND ') : 'TRUE'} ORDER BY ${BY_KEY} LIMIT ${param(limit)}`;
    return this.podsWhere(db, clause, BY_KEY, params);
  }

  async create(db: Db, pod: PodWrite): Promise<StoredPod> {
    return toStoredPod(await db.pod.create({ data: podData(pod) }));
  }

  /** Conditional replace (optimistic concurrency); undefined when gone or the version moved on. */
  async replace(db: Db, pod: PodWrite, expectedVersion?: string): Promise<StoredPod | undefined> {
    const where = {
      namespace: pod.namespace,
      name: pod.name,
      ...(expectedVersion === undefined ? {} : { resourceVersion: Number(expectedVersion) }),
    };
    const updated = await db.pod.updateMany({ where, data: { ...podData(pod), resourceVersion: { increment: 1 } } });
    if (updated.count === 0) return undefined;
    return this.findByKey(db, pod.namespace, pod.name);
  }

  /** Binds or unbinds; conditional on the current binding so two writers cannot both win. */
  async setBinding(
    db: Db,
    namespace: string,
    name: string,
    from: string | null,
    to: { nodeName: string | null; phase: PodPhase; boundAt: Date | null },
  ): Promise<StoredPod | undefined> {
    const updated = await db.pod.updateMany({
      where: { namespace, name, nodeName: from },
      data: { nodeName: to.nodeName, phase: to.phase, boundAt: to.boundAt, resourceVersion: { increment: 1 } },
    });
    if (updated.count === 0) return undefined;
    return this.findByKey(db, namespace, name);
  }

  /**
   * Unbinds the pods (an eviction: `nodeName: null`, the given phase). One array parameter, where
   * Prisma's `in` binds one per pod (5,000 in a sweep batch); `updated_at` is the mutation's `now`,
   * as the snapshot records it.
   */
  async unbindMany(db: Db, uids: readonly string[], phase: PodPhase, now: Date): Promise<number> {
    if (uids.length === 0) return 0;
    return db.$executeRawUnsafe(
      `UPDATE pods SET node_name = NULL, phase = $2, bound_at = NULL, resource_version = resource_version + 1, updated_at = $3::timestamptz WHERE uid = ANY($1::text[])`,
      [...uids],
      phase,
      now.toISOString(),
    );
  }

  /** The pods with these uids, as `findActiveOnNodes` reads them (plain SQL, one array parameter). */
  async findByUids(db: Db, uids: readonly string[]): Promise<StoredPod[]> {
    if (uids.length === 0) return [];
    return this.podsWhere(db, 'uid = ANY($1::text[])', undefined, [[...uids]]);
  }

  /**
   * Pods by a WHERE clause (which may end in its own ORDER BY and LIMIT) with its parameters, whole, in `order` when
   * given.
   */
  private async podsWhere(
    db: Db,
    where: string,
    order: string | undefined,
    params: readonly unknown[],
  ): Promise<StoredPod[]> {
    return podsFromTexts(await this.podTexts(db, POD_TEXT, where, order, params), new JsonInterner(), columnsById(db));
  }

  /**
   * One text per pod (`text`: `POD_TEXT`, `POD_TO_PLAN_TEXT`) for the pods a WHERE clause selects (it may end in its
   * own ORDER BY and LIMIT), in `order` when given. They come back as ONE value, joined by `POD_RECORD_SEP`, with
   * their count: every value of a result is decoded on its own (PGlite's protocol parser, node-postgres's), mapped by
   * Prisma and, embedded, copied between threads. When a field holds the separator the pieces outnumber the count,
   * and the rows are read one by one instead; rows whose fields will not split are the caller's to read again.
   */
  private async podTexts(
    db: Db,
    text: string,
    where: string,
    order: string | undefined,
    params: readonly unknown[],
  ): Promise<string[]> {
    const ordered = order ? ` ORDER BY ${order}` : '';
    const [all] = await db.$queryRawUnsafe<Array<{ n: number; texts: string | null }>>(
      `SELECT count(*)::int AS n, string_agg(${text}, E'\\x1e'${ordered}) AS texts FROM (SELECT * FROM pods WHERE ${where}) pods`,
      ...params,
    );
    const texts = all.texts === null ? [] : all.texts.split(POD_RECORD_SEP);
    if (texts.length === all.n) return texts;
    const rows = await db.$queryRawUnsafe<Array<{ text: string }>>(
      `SELECT ${text} AS text FROM (SELECT * FROM pods WHERE ${where}) pods${ordered}`,
      ...params,
    );
    return rows.map((r) => r.text);
  }

  async delete(db: Db, namespace: string, name: string): Promise<boolean> {
    return (await db.pod.deleteMany({ where: { namespace, name } })).count > 0;
  }

  /** The stored pods among the given keys. */
  async existingPods(
    db: Db,
    keys: ReadonlyArray<{ namespace: string; name: string }>,
  ): Promise<Map<string, ExistingPodRow>> {
    const out = new Map<string, ExistingPodRow>();
    for (const chunk of chunks(keys, CHUNK * 2)) {
      const rows = await db.$queryRawUnsafe<
        Array<{
          namespace: string;
          name: string;
          uid: string;
          node_name: string | null;
          phase: string;
          comparison: boolean;
        }>
      >(
        `SELECT p.namespace, p.name, p.uid, p.node_name, p.phase,
                (p.tolerations::text LIKE '%"operator": "Gt"%' OR p.tolerations::text LIKE '%"operator": "Lt"%') AS comparison
         FROM pods p JOIN unnest($1::text[], $2::text[]) AS k(namespace, name) ON p.namespace = k.namespace AND p.name = k.name`,
        chunk.map((k) => k.namespace),
        chunk.map((k) => k.name),
      );
      for (const r of rows) {
        out.set(`${r.namespace}/${r.name}`, {
          namespace: r.namespace,
          name: r.name,
          uid: r.uid,
          nodeName: r.node_name,
          phase: r.phase,
          usesComparisonOperators: r.comparison === true,
        });
      }
    }
    return out;
  }

  /** Which of these pods (namespace/name) are cluster-owned (mirrored), as `namespace/name`. */
  async clusterOwned(db: Db, keys: ReadonlyArray<{ namespace: string; name: string }>): Promise<string[]> {
    const out: string[] = [];
    for (const chunk of chunks(keys, CHUNK * 2)) {
      const rows = await db.$queryRawUnsafe<Array<{ namespace: string; name: string }>>(
        `SELECT p.namespace, p.name FROM pods p JOIN unnest($1::text[], $2::text[]) AS k(namespace, name)
           ON p.namespace = k.namespace AND p.name = k.name WHERE p.origin = 'cluster' ORDER BY 1, 2`,
        chunk.map((k) => k.namespace),
        chunk.map((k) => k.name),
      );
      out.push(...rows.map((r) => `${r.namespace}/${r.name}`));
    }
    return out;
  }

  /** Which of these uids are cluster-owned pods (their evictions are forecasts). */
  async clusterOwnedUids(db: Db, uids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const chunk of chunks(uids, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ uid: string }>>(
        "SELECT uid FROM pods WHERE uid = ANY($1::text[]) AND origin = 'cluster'",
        [...chunk],
      );
      for (const r of rows) out.add(r.uid);
    }
    return out;
  }

  /** Every cluster-owned pod's namespace/name (what a relist compares the cluster's list with). */
  async clusterPodKeys(db: Db): Promise<Array<{ namespace: string; name: string }>> {
    return db.$queryRawUnsafe<Array<{ namespace: string; name: string }>>(
      "SELECT namespace, name FROM pods WHERE origin = 'cluster' ORDER BY namespace, name",
    );
  }

  /** The pods with these keys as stored (for deleting them with their evictions). */
  async findByKeys(db: Db, keys: ReadonlyArray<{ namespace: string; name: string }>): Promise<StoredPod[]> {
    const out: StoredPod[] = [];
    for (const chunk of chunks(keys, CHUNK * 2))
      out.push(
        ...(await this.podsWhere(db, `(namespace, name) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, undefined, [
          chunk.map((k) => k.namespace),
          chunk.map((k) => k.name),
        ])),
      );
    return out;
  }

  /** Deletes the pods with these uids, in one statement per chunk. */
  async deleteByUids(db: Db, uids: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const chunk of chunks(uids, CHUNK * 4))
      deleted += await db.$executeRawUnsafe('DELETE FROM pods WHERE uid = ANY($1::text[])', [...chunk]);
    return deleted;
  }

  /** Pods holding any of the uids: `uid → namespace/name`. */
  async podKeysByUid(db: Db, uids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const chunk of chunks(uids, CHUNK * 4)) {
      const rows = await db.$queryRawUnsafe<Array<{ uid: string; namespace: string; name: string }>>(
        'SELECT uid, namespace, name FROM pods WHERE uid = ANY($1::text[])',
        [...chunk],
      );
      for (const r of rows) out.set(r.uid, `${r.namespace}/${r.name}`);
    }
    return out;
  }

  /**
   * Creates or replaces pods. A replaced pod keeps the uid it was first stored with (eviction rows
   * refer to it). Answers the stored pods and which were created. `origin` 'cluster' marks them the mirrored
   * cluster's in the same statement (a second UPDATE wrote every row twice: a new tuple version per pod in the
   * mirror's initial sync); without it a new pod is `local` and a replaced one keeps its origin.
   */
  async upsertPods(
    db: Db,
    pods: readonly PodWrite[],
    now: Date,
    origin?: 'cluster',
  ): Promise<Array<{ pod: StoredPod; created: boolean }>> {
    const out: Array<{ pod: StoredPod; created: boolean }> = [];
    const json = new SharedJson();
    for (const chunk of chunks(pods, CHUNK)) {
      const texts = chunk.map((p) => ({
        tolerations: json.text(p.tolerations),
        nodeSelector: json.text(p.nodeSelector),
        affinity: p.affinity === null ? null : json.text(p.affinity),
        resources: json.text(p.resources),
        requests: json.text(p.requests),
        labels: json.text(p.labels),
      }));
      const rows = await db.$queryRawUnsafe<
        Array<{
          namespace: string;
          name: string;
          uid: string;
          resource_version: number;
          created_at: Date | string;
          updated_at: Date | string;
          inserted: boolean;
        }>
      >(
        `INSERT INTO pods (id, namespace, name, uid, node_name, phase, bound_at, tolerations, node_selector, affinity, priority,
                           owner_kind, owner_name, resources, requests, host_network, labels, resource_version, created_at, updated_at, origin)
         SELECT gen_random_uuid(), t.namespace, t.name, t.uid, t.node_name, t.phase, t.bound_at, t.tolerations::jsonb, t.node_selector::jsonb,
                t.affinity::jsonb, t.priority, t.owner_kind, t.owner_name, t.resources::jsonb, t.requests::jsonb, t.host_network, t.labels::jsonb, 1,
                $16::timestamptz, $16::timestamptz, COALESCE($18::text, 'local')
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::text[],
                     $10::int[], $11::text[], $12::text[], $13::text[], $14::text[], $15::boolean[], $17::text[])
              AS t(namespace, name, uid, node_name, phase, bound_at, tolerations, node_selector, affinity, priority, owner_kind, owner_name, resources, requests, host_network, labels)
         ON CONFLICT (namespace, name) DO UPDATE SET node_name = EXCLUDED.node_name, phase = EXCLUDED.phase, bound_at = EXCLUDED.bound_at,
           tolerations = EXCLUDED.tolerations, node_selector = EXCLUDED.node_selector, affinity = EXCLUDED.affinity, priority = EXCLUDED.priority,
           owner_kind = EXCLUDED.owner_kind, owner_name = EXCLUDED.owner_name, resources = EXCLUDED.resources, requests = EXCLUDED.requests,
           host_network = EXCLUDED.host_network, labels = EXCLUDED.labels, resource_version = pods.resource_version + 1, updated_at = EXCLUDED.updated_at,
           origin = COALESCE($18::text, pods.origin)
         RETURNING namespace, name, uid, resource_version, created_at, updated_at, (xmax = 0) AS inserted`,
        chunk.map((p) => p.namespace),
        chunk.map((p) => p.name),
        chunk.map((p) => p.uid),
        chunk.map((p) => p.nodeName),
        chunk.map((p) => p.phase),
        chunk.map((p) => (p.boundAt ? p.boundAt.toISOString() : null)),
        texts.map((t) => t.tolerations),
        texts.map((t) => t.nodeSelector),
        texts.map((t) => t.affinity),
        chunk.map((p) => p.priority),
        chunk.map((p) => p.owner?.kind ?? null),
        chunk.map((p) => p.owner?.name ?? null),
        texts.map((t) => t.resources),
        texts.map((t) => t.requests),
        chunk.map((p) => p.hostNetwork),
        now.toISOString(),
        texts.map((t) => t.labels),
        origin ?? null,
      );
      const byKey = new Map(rows.map((r) => [`${r.namespace}/${r.name}`, r]));
      chunk.forEach((p, i) => {
        const r = byKey.get(`${p.namespace}/${p.name}`)!;
        const t = texts[i];
        out.push({
          created: r.inserted === true || (r.inserted as unknown) === 't',
          pod: {
            ...p,
            tolerations: json.shared(t.tolerations),
            nodeSelector: json.shared(t.nodeSelector),
            affinity: t.affinity === null ? null : json.shared(t.affinity),
            resources: json.shared(t.resources),
            requests: json.shared(t.requests),
            labels: json.shared(t.labels),
            uid: r.uid,
            resourceVersion: String(r.resource_version),
            createdAt: toDate(r.created_at),
            updatedAt: toDate(r.updated_at),
          },
        });
      });
    }
    return out;
  }
}

function podData(pod: PodWrite) {
  return {
    namespace: pod.namespace,
    name: pod.name,
    uid: pod.uid,
    labels: json(pod.labels),
    nodeName: pod.nodeName,
    phase: pod.phase,
    boundAt: pod.boundAt,
    tolerations: json(pod.tolerations),
    nodeSelector: json(pod.nodeSelector),
    affinity: pod.affinity === null ? Prisma.DbNull : json(pod.affinity),
    priority: pod.priority,
    ownerKind: pod.owner?.kind ?? null,
    ownerName: pod.owner?.name ?? null,
    resources: json(pod.resources),
    requests: json(pod.requests),
    hostNetwork: pod.hostNetwork,
  };
}

type PodRow = {
  namespace: string;
  name: string;
  uid: string;
  labels: unknown;
  nodeName: string | null;
  phase: string;
  boundAt: Date | null;
  tolerations: unknown;
  nodeSelector: unknown;
  affinity: unknown;
  priority: number;
  ownerKind: string | null;
  ownerName: string | null;
  resources: unknown;
  requests: unknown;
  hostNetwork: boolean;
  resourceVersion: number;
  createdAt: Date;
  updatedAt: Date;
};

export function toStoredPod(row: PodRow): StoredPod {
  return {
    namespace: row.namespace,
    name: row.name,
    uid: row.uid,
    labels: (row.labels ?? {}) as Record<string, string>,
    nodeName: row.nodeName,
    phase: row.phase,
    boundAt: row.boundAt,
    tolerations: (row.tolerations ?? []) as Toleration[],
    nodeSelector: (row.nodeSelector ?? {}) as Record<string, string>,
    affinity: (row.affinity ?? null) as Affinity | null,
    priority: row.priority,
    owner: row.ownerKind && row.ownerName ? { kind: row.ownerKind, name: row.ownerName } : null,
    resources: (row.resources ?? {}) as PodResources,
    requests: (row.requests ?? {}) as ResourceVector,
    hostNetwork: row.hostNetwork,
    resourceVersion: String(row.resourceVersion),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The rows a one-text read could not split, read again by id as plain columns (pod-rows.ts's fallback). */
function columnsById(db: Db): (ids: string[]) => Promise<unknown[][]> {
  return async (ids) =>
    (
      await db.$queryRawUnsafe<Array<Record<string, unknown>>>(
        `SELECT ${POD_COLUMNS} FROM pods WHERE id = ANY($1::uuid[])`,
        ids,
      )
    ).map((row) => Object.values(row));
}
