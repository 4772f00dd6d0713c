import type { Database } from '../persistence/database';
import type { NodeCondition, ResourceList, Taint, TaintEffect } from '../../domain/types';
import type { StoredNode, StoredPod } from '../model/stored-objects';
import type { StoredBudget } from '../model/stored-budget';
import { toStoredBudget } from '../persistence/repositories/budget.repository';
import type { EvictedPod } from './inventory-snapshot';
import { JsonInterner, POD_COLUMNS, POD_TEXT, podsFromTexts, toDate } from '../persistence/repositories/pod-rows';

/**
 * Reads the whole inventory for the snapshot, fast: plain SQL on the driver (PostgreSQL's pg or
 * PGlite), rows as arrays, JSON columns as text parsed once per distinct value (`pod-rows.ts`).
 * (Prisma's findMany took ~6x longer for the same 150,000 rows.) Read-only; the repositories stay
 * the only writers.
 */
export interface InventoryRows {
  nodes: StoredNode[];
  pods: StoredPod[];
  budgets: StoredBudget[];
  evictedOwned: EvictedPod[];
}

type Row = unknown[];
type Query = (sql: string) => Promise<Row[]>;

export async function loadInventory(database: Database): Promise<InventoryRows> {
  const { query, release, ahead } = await arrayQuery(database);
  try {
    const json = new JsonInterner();
    const nodes = await loadNodes(query, json);
    const pods = await loadActivePods(query, json, ahead);
    const budgets = await loadBudgets(query);
    const evictedOwned = await loadEvictedOwned(query, json);
    return { nodes, pods, budgets, evictedOwned };
  } finally {
    await release();
  }
}

/**
 * `ahead`: whether sending a statement before the rows of the previous one are parsed gains anything. It does on
 * both: PostgreSQL's connection runs queued statements in order, so the server works on the next part (on the
 * other core) while this thread parses the last one, as far as the socket's buffers let it run ahead
 * (loadInventory −8 % at 150,000 pods, bench/ANALYSIS.md); embedded PGlite runs in a thread of its own
 * (pglite-thread.ts), which reads the next part meanwhile.
 */
async function arrayQuery(database: Database): Promise<{ query: Query; release: () => Promise<void>; ahead: boolean }> {
  if (database.kind === 'pglite' && database.embedded) {
    const embedded = database.embedded;
    return { query: (sql) => embedded.rows(sql), release: async () => undefined, ahead: true };
  }
  const client = await database.newPgClient();
  return {
    query: async (sql) => (await client.query<Row>({ text: sql, rowMode: 'array' })).rows,
    release: () => client.end(),
    ahead: true,
  };
}

async function loadNodes(query: Query, json: JsonInterner): Promise<StoredNode[]> {
  const taintRows = await query(
    'SELECT node_name, key, value, effect::text, time_added, respect_budgets FROM taints ORDER BY node_name, position',
  );
  const taintsByNode = new Map<string, Taint[]>();
  for (const [node, key, value, effect, timeAdded, respect] of taintRows as Array<
    [string, string, string, string, Date, boolean]
  >) {
    let list = taintsByNode.get(node);
    if (!list) taintsByNode.set(node, (list = []));
    const taint: Taint = { key, value, effect: effect as TaintEffect, timeAdded: toDate(timeAdded) };
    if (respect === true || (respect as unknown) === 't') taint.respectBudgets = true;
    list.push(taint);
  }
  const rows = await query(
    'SELECT name, labels::text, unschedulable, conditions::text, allocatable::text, resource_version, created_at, updated_at FROM nodes',
  );
  return (rows as Array<[string, string, boolean, string, string | null, number, Date, Date]>).map(
    ([name, labels, unschedulable, conditions, allocatable, rv, createdAt, updatedAt]) => ({
      name,
      labels: json.parse(labels) as Record<string, string>,
      taints: taintsByNode.get(name) ?? [],
      unschedulable,
      conditions: (JSON.parse(conditions) as Array<NodeCondition & { lastTransitionTime?: string }>).map((c) => ({
        ...c,
        ...(c.lastTransitionTime ? { lastTransitionTime: new Date(c.lastTransitionTime) } : {}),
      })),
      allocatable: allocatable === null ? null : (json.parse(allocatable) as ResourceList),
      resourceVersion: String(rv),
      createdAt: toDate(createdAt),
      updatedAt: toDate(updatedAt),
    }),
  );
}

/** Disjoint parts the pods are read in (by a hash of the uid): bounded results, sequential scans. */
const POD_PARTS = 4;

/**
 * The active pods, as one text per row (`POD_TEXT`), in `POD_PARTS` queries that each scan the table
 * once: paging by `ORDER BY id` walked the primary key and cost a second more at 150,000 pods. With
 * `ahead`, each part's statement is sent before the previous part's rows are parsed (see arrayQuery).
 */
async function loadActivePods(query: Query, json: JsonInterner, ahead: boolean): Promise<StoredPod[]> {
  const pods: StoredPod[] = [];
  const readByIds = (ids: string[]) =>
    query(
      `SELECT ${POD_COLUMNS} FROM pods WHERE id IN (${ids.map((id) => `'${id.replace(/'/g, "''")}'::uuid`).join(',')})`,
    );
  const readPart = (part: number): Promise<Row[]> => {
    const rows = query(
      `SELECT ${POD_TEXT} FROM pods WHERE phase IN ('Pending', 'Running') AND (hashtext(uid) & ${POD_PARTS - 1}) = ${part}`,
    );
    // a part sent ahead is awaited later; if parsing an earlier part throws first, its failure must not
    // also surface as an unhandled rejection
    rows.catch(() => undefined);
    return rows;
  };
  let next: Promise<Row[]> | undefined;
  for (let part = 0; part < POD_PARTS; part++) {
    const rows = await (next ?? readPart(part));
    next = ahead && part + 1 < POD_PARTS ? readPart(part + 1) : undefined;
    pods.push(
      ...(await podsFromTexts(
        rows.map(([text]) => String(text)),
        json,
        readByIds,
      )),
    );
  }
  return pods;
}

async function loadBudgets(query: Query): Promise<StoredBudget[]> {
  const rows = await query(
    `SELECT namespace, name, uid, labels::text, min_available::text, max_unavailable::text, selector::text,
            unhealthy_pod_eviction_policy, generation, resource_version, created_at, updated_at
     FROM pod_disruption_budgets`,
  );
  const parse = (text: unknown) => (text === null ? null : (JSON.parse(String(text)) as unknown));
  return rows.map((r) =>
    toStoredBudget({
      namespace: String(r[0]),
      name: String(r[1]),
      uid: String(r[2]),
      labels: parse(r[3]),
      minAvailable: parse(r[4]),
      maxUnavailable: parse(r[5]),
      selector: parse(r[6]),
      unhealthyPodEvictionPolicy: r[7] === null ? null : String(r[7]),
      generation: Number(r[8]),
      resourceVersion: Number(r[9]),
      createdAt: toDate(r[10] as Date),
      updatedAt: toDate(r[11] as Date),
    }),
  );
}

/** Pods taintwise evicted that have an owner: the budgets selecting them still expect them (SEMANTICS B.9.2). */
async function loadEvictedOwned(query: Query, json: JsonInterner): Promise<EvictedPod[]> {
  const rows = await query(
    "SELECT namespace, name, labels::text FROM pods WHERE phase = 'Evicted' AND owner_kind IS NOT NULL",
  );
  return rows.map(([namespace, name, labels]) => ({
    namespace: String(namespace),
    name: String(name),
    labels: json.parse(String(labels)) as Record<string, string>,
  }));
}
