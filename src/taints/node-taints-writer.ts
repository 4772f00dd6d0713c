import { Injectable } from '@nestjs/common';
import type { StoredNode } from '../kernel/model/stored-objects';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import type { Db } from '../kernel/persistence/prisma-types';

/**
 * Writes new taints for many nodes in three statements, whatever the number of nodes: bump the
 * nodes' resourceVersion, delete their taints, insert the new ones (one array parameter per
 * column). `NodeRepository.replace` does the same for one node in five round trips, which made a
 * `POST /v1/taints` over 100 nodes cost 500 round trips inside its transaction. Only the taints
 * change here (labels, conditions, allocatable stay), which is all `kubectl taint` changes.
 * The caller holds the nodes' locks. Returns the nodes as stored, in name order.
 */
@Injectable()
export class NodeTaintsWriter {
  constructor(private readonly nodes: NodeRepository) {}

  async replaceTaints(db: Db, nodes: readonly StoredNode[], now: Date): Promise<StoredNode[]> {
    if (nodes.length === 0) return [];
    const names = nodes.map((n) => n.name);
    const updated = await db.$executeRawUnsafe(
      'UPDATE nodes SET resource_version = resource_version + 1, updated_at = $2::timestamptz WHERE name = ANY($1::text[])',
      names, now.toISOString(),
    );
    if (updated !== names.length) return [];
    await db.$executeRawUnsafe('DELETE FROM taints WHERE node_name = ANY($1::text[])', names);
    const rows = nodes.flatMap((n) => n.taints.map((t, position) => ({ node: n.name, t, position })));
    if (rows.length) {
      await db.$executeRawUnsafe(
        // text[] then a cast per row: the embedded adapter cannot send an array of an enum type.
        `INSERT INTO taints (node_name, key, value, effect, time_added, position)
         SELECT u.node_name, u.key, u.value, u.effect::"TaintEffect", u.time_added, u.position
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[]) AS u(node_name, key, value, effect, time_added, position)`,
        rows.map((r) => r.node), rows.map((r) => r.t.key), rows.map((r) => r.t.value ?? ''), rows.map((r) => r.t.effect),
        rows.map((r) => (r.t.timeAdded ?? now).toISOString()), rows.map((r) => r.position),
      );
    }
    return this.nodes.findByNames(db, names);
  }
}
