/** Due rows on one node, as `EvictionRepository.dueRowsPerNode` counts them. */
export interface DueOnNode {
  nodeName: string;
  rows: number;
}

/**
 * Splits the nodes with due rows into the node groups of a sweep's transactions: as few groups as keep each near or
 * under `batch` rows, that count rounded up to a multiple of `parallel` (the transactions run side by side that many
 * at a time), and the rows spread evenly between them. Nodes keep their order (name order: locks are taken in it)
 * and are never split, so groups never share a node and parallel transactions never wait on each other's locks.
 *
 * Why even groups: the sweep used to split the nodes by a hash of their name, in `parallel` parts of unequal size,
 * each taken `batch` rows at a time. 10,000 rows due together split 4,700 / 5,300, and the last 300 waited for a
 * third transaction that started only when the second part's first one had committed (~1.1 s later). Even groups
 * of 5,000 start together.
 *
 * A node with more due rows than `batch` still forms one group; its transaction takes `batch` rows and the sweep
 * takes the rest afterwards.
 */
export function planSweepGroups(due: readonly DueOnNode[], batch: number, parallel: number): string[][] {
  const total = due.reduce((sum, node) => sum + node.rows, 0);
  if (total === 0) return [];
  const count = Math.ceil(Math.ceil(total / batch) / parallel) * parallel;
  const target = total / count;
  const groups: string[][] = Array.from({ length: count }, () => []);
  let before = 0;
  for (const node of due) {
    // The group whose share holds this node's middle row: consecutive nodes, shares of `target` rows.
    const group = Math.min(count - 1, Math.floor((before + node.rows / 2) / target));
    groups[group].push(node.nodeName);
    before += node.rows;
  }
  return groups.filter((group) => group.length > 0);
}
