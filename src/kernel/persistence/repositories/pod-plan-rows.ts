import type { Toleration } from '../../../domain/types';
import type { PodToPlan } from '../../model/stored-objects';
import type { JsonInterner } from './pod-rows';

/**
 * The pods to plan of a WHERE clause over `pods`, as ONE json text: an array of [namespace, name, uid, node_name,
 * phase, bound_at, created_at, tolerations] (times as epoch milliseconds) in (namespace, name) order. A NoExecute
 * taint over 100 full nodes reads 11,000 pods: their labels, selectors, affinity and resources (five of the six jsonb
 * columns) were most of what PGlite turned into text, sent and sorted (9.4 MB, through a temp file), and the
 * planner reads none of them; and one value instead of 11,000 rows spares PGlite's and Prisma's per-row decoding
 * (bench/ANALYSIS.md, issue 13). JSON, unlike a separator, cannot be confused by what a name holds.
 */
export function podsToPlanJson(where: string): string {
  return `SELECT json_agg(json_build_array(namespace, name, uid, node_name, phase,
      (extract(epoch from bound_at) * 1000)::bigint, (extract(epoch from created_at) * 1000)::bigint, tolerations)
    ORDER BY namespace, name)::text AS pods FROM pods WHERE ${where}`;
}

type Row = [string, string, string, string | null, string, number | null, number, Toleration[]];

/** The `podsToPlanJson` text (NULL when no pod matched) as pods to plan, in its order. */
export function podsToPlanFromJson(text: string | null, json: JsonInterner): PodToPlan[] {
  if (text === null) return [];
  return (JSON.parse(text) as Row[]).map(
    ([namespace, name, uid, nodeName, phase, boundAt, createdAt, tolerations]) => ({
      // The few distinct namespaces, nodes and phases as one string each, as the snapshot's reader keeps them.
      namespace: json.text(namespace),
      name,
      uid,
      nodeName: nodeName === null ? null : json.text(nodeName),
      phase: json.text(phase),
      boundAt: boundAt === null ? null : new Date(boundAt),
      createdAt: new Date(createdAt),
      tolerations,
    }),
  );
}
