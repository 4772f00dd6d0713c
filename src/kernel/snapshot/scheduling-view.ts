import { buildNodeTable, nodeIndex, withRefreshedResources, type NodeTable } from '../../domain/scheduling/node-table';
import type { SchedulingNode } from '../../domain/types';

/**
 * The snapshot's nodes as a scheduling table (domain/scheduling/node-table.ts): what
 * `decideFeasibleNodes` reads, built on first use and kept until the snapshot changes
 * (`changeCount`). A change to the nodes themselves (load, upsert, removal: names, labels, taints,
 * cordon, allocatable) rebuilds it; a change to pods only recomputes the resource rows of the nodes
 * whose bound pods changed, sharing everything else (taint classes, label groups) with the previous table.
 */
export class SchedulingView {
  private table: NodeTable | undefined;
  private changeCount = -1;
  private structureVersion = -1;

  /**
   * The table for the snapshot state described by the arguments. `resourceChanges` names the nodes
   * whose `requested` changed in place since the last call; it is consumed (cleared).
   */
  current(
    changeCount: number,
    structureVersion: number,
    nodes: readonly SchedulingNode[],
    resourceChanges: Set<string>,
  ): NodeTable {
    if (this.table !== undefined && this.changeCount === changeCount) return this.table;
    const previous = this.table;
    if (previous !== undefined && this.structureVersion === structureVersion && previous.nodes === nodes) {
      const rows: number[] = [];
      for (const name of resourceChanges) {
        const index = nodeIndex(previous, name);
        if (index !== undefined) rows.push(index);
      }
      this.table = rows.length > 0 ? withRefreshedResources(previous, rows) : previous;
    } else {
      this.table = buildNodeTable(nodes);
    }
    resourceChanges.clear();
    this.changeCount = changeCount;
    this.structureVersion = structureVersion;
    return this.table;
  }
}
