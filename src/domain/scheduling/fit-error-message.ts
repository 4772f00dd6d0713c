/**
 * Upstream's `FitError.Error()` (pkg/scheduler/framework/types.go, SEMANTICS B.4.3), generalised to
 * say how many nodes ARE available: `<feasible>/<total> nodes are available: ` then each distinct
 * reason as `"<count> <reason>"`, the strings sorted lexicographically as strings (so `"10 …"` sorts
 * before `"2 …"`), joined by `", "`, then `"."`. Each infeasible node contributes the reasons of its
 * FIRST failing plugin only (upstream stops there); NodeResourcesFit can contribute several reasons
 * for one node (`Insufficient cpu` and `Insufficient memory`), as upstream counts them.
 *
 * taintwise's additions: with nothing to report (every node feasible, or no nodes at all) the text is
 * just `<feasible>/<total> nodes are available.` — upstream never prints a FitError then.
 * @example fitErrorMessage(0, 5, new Map([['node(s) were unschedulable', 1], ['node(s) had untolerated taint {a: b}',
 * 4]]))
 *   // '0/5 nodes are available: 1 node(s) were unschedulable, 4 node(s) had untolerated taint {a: b}.'
 */
export function fitErrorMessage(feasible: number, total: number, reasonCounts: ReadonlyMap<string, number>): string {
  const head = `${feasible}/${total} nodes are available`;
  if (reasonCounts.size === 0) return `${head}.`;
  const histogram: string[] = [];
  for (const [reason, count] of reasonCounts) histogram.push(`${count} ${reason}`);
  histogram.sort(); // code-unit order, as Go's sort.Strings on the ASCII texts
  return `${head}: ${histogram.join(', ')}.`;
}
