import {
  deadlineMs,
  earliestDeadline,
  noExecuteTolerance,
  type NoExecuteTolerance,
} from '../domain/eviction/decide-eviction';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { Taint, Toleration } from '../domain/types';
import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { TaintImpactAnswer } from './decision-answers';
import type { BudgetTally } from './disruption-impact';
import { encoded } from './json-byte-pieces';
import { ScratchBytes } from './scratch-bytes';
import { dateMs } from './taint-impact-counts';

/** A target node of the what-if: its bound pods' slots in (namespace, name) order, and its proposed taints. */
export interface ListedNode {
  name: string;
  slots: Iterable<number>;
  taints: readonly Taint[];
}

/** The parts of the lists answer that are not per bound pod (small: written by JSON.stringify). */
export type TaintImpactRest = Pick<TaintImpactAnswer, 'unschedulablePending' | 'schedulablePending' | 'warnings'>;

/**
 * The whole taint-impact lists answer (no paging, no re-placement) as the REST JSON bytes, from the
 * snapshot's pod columns: the bytes of `JSON.stringify(presentTaintImpact(taintImpact(body)))`
 * (taint-impact-json.spec.ts compares them on a generated inventory), without what that path made per
 * pod over a 500-node pool (~14,000): a view with a Date, a decision with another, the row, and the
 * presented copy of the row; nor a 2.4 MB string for Fastify to measure and encode again.
 *
 * One pass: each pod is decided (the A.3 rule, numbers only) and its row written at once as bytes. A
 * row is the opening of its namespace (`{"pod":{"namespace":"…","name":`), the pod's name, the closing
 * of its node (`},"node":"…"`) and, for an eviction, the ending of its deadline (action, seconds left,
 * evictAt): the three pieces are encoded once per answer and copied, the name copied character by
 * character. The budgets report counts the same evictions, grouped by namespace and label set first
 * (BudgetTally.addPods: a few hundred groups, not ~14,000 budget lookups).
 */
export function writeTaintImpactJson(
  pods: PodColumns,
  nodes: readonly ListedNode[],
  at: Date,
  options: MatchOptions,
  budgets: BudgetTally,
  rest: TaintImpactRest,
): Buffer {
  const atMs = at.getTime();
  const budgeted = budgets.empty ? undefined : new BudgetedEvictions(pods);
  const pieces = new RowPieces(pods, atMs);
  const out = new ScratchBytes();
  out.put(encoded(`{"at":${JSON.stringify(pieces.instant(atMs))},"evictions":[`));
  // tolerating pods are listed after every eviction: their slots and nodes, until then
  const tolerating: number[] = [];
  let first = true;
  // One toleration analysis per distinct (taints, tolerations) pair, as partitionTaintImpact memoises.
  const memo = new Map<readonly Taint[], Map<readonly Toleration[], NoExecuteTolerance>>();
  for (let n = 0; n < nodes.length; n++) {
    const node = nodes[n];
    let byTolerations = memo.get(node.taints);
    if (!byTolerations) memo.set(node.taints, (byTolerations = new Map()));
    const closing = pieces.nodeClosing(node.name);
    for (const slot of node.slots) {
      const tolerations = pods.tolerationsOf(slot);
      let tolerance = byTolerations.get(tolerations);
      if (!tolerance)
        byTolerations.set(tolerations, (tolerance = noExecuteTolerance(tolerations, node.taints, options)));
      let ending = pieces.evictedNow;
      let evictedNow = true;
      if (tolerance.untolerated === undefined) {
        const boundAtMs = pods.boundAtMs(slot);
        const index = earliestDeadline(tolerance, boundAtMs);
        if (index < 0) {
          tolerating.push(slot, n);
          continue;
        }
        const deadline = deadlineMs(tolerance.finite[index], boundAtMs);
        ending = pieces.deadlineEnding(deadline);
        evictedNow = !(deadline - atMs > 0);
      }
      out.row(first, pieces.podOpening(slot), pods.name(slot), closing, ending);
      first = false;
      if (budgeted) budgeted.add(slot, evictedNow);
    }
  }
  out.put(encoded('],"tolerating":['));
  const closings = nodes.map((node) => pieces.nodeClosing(node.name));
  for (let i = 0; i < tolerating.length; i += 2) {
    const slot = tolerating[i];
    out.row(i === 0, pieces.podOpening(slot), pods.name(slot), closings[tolerating[i + 1]], CLOSE);
  }
  budgeted?.addTo(budgets);
  // the keys in the order taintImpact's answer has them
  out.put(
    encoded(
      `],"unschedulablePending":${JSON.stringify(rest.unschedulablePending)}` +
        `,"schedulablePending":${JSON.stringify(rest.schedulablePending)}` +
        `,"warnings":${JSON.stringify(rest.warnings)},"budgets":${JSON.stringify(budgets.views())}}`,
    ),
  );
  return out.result();
}

const CLOSE = encoded('}');

interface EvictionGroup {
  now: number;
  total: number;
  running: number;
}

/** Evictions per namespace and label set (the pod store shares a labels object per distinct set). */
class BudgetedEvictions {
  private readonly byNamespace: Array<Map<object, EvictionGroup>> = [];

  constructor(private readonly pods: PodColumns) {}

  /** The group of the previous eviction: a node's pods in name order come workload by workload. */
  private last: { namespace: number; labels: object; group: EvictionGroup } | undefined;

  add(slot: number, evictedNow: boolean): void {
    const pods = this.pods;
    const labels = pods.labelsOf(slot);
    const namespace = pods.namespaceId(slot);
    let group: EvictionGroup | undefined;
    if (this.last !== undefined && this.last.labels === labels && this.last.namespace === namespace)
      group = this.last.group;
    else {
      const inNamespace = (this.byNamespace[namespace] ??= new Map());
      group = inNamespace.get(labels);
      if (group === undefined) inNamespace.set(labels, (group = { now: 0, total: 0, running: 0 }));
      this.last = { namespace, labels, group };
    }
    group.total++;
    if (evictedNow) group.now++;
    if (pods.phaseOf(slot) === 'Running') group.running++;
  }

  /** budgetImpact's counts: its views are sorted by budget, so the order groups come in does not matter. */
  addTo(budgets: BudgetTally): void {
    this.byNamespace.forEach((groups, id) => {
      const namespace = this.pods.namespaceName(id);
      for (const [labels, { now, total, running }] of groups)
        budgets.addPods(namespace, labels as Record<string, string>, now, total, running);
    });
  }
}

/** The encoded pieces rows repeat, each made once per answer. */
class RowPieces {
  /** `}` with evictAt at the answer's instant: what an untolerated taint does. */
  readonly evictedNow: Uint8Array;
  private readonly openings: Array<Uint8Array | undefined> = [];
  private readonly closings = new Map<string, Uint8Array>();
  private readonly endings = new Map<number, Uint8Array>();
  private readonly instants = new Map<number, string>();

  constructor(
    private readonly pods: PodColumns,
    private readonly atMs: number,
  ) {
    this.evictedNow = this.ending(0, atMs);
  }

  /** `{"pod":{"namespace":"…","name":` of the pod's namespace. */
  podOpening(slot: number): Uint8Array {
    const id = this.pods.namespaceId(slot);
    return (this.openings[id] ??= encoded(
      `{"pod":{"namespace":${JSON.stringify(this.pods.namespaceName(id))},"name":`,
    ));
  }

  /** `},"node":"…"` */
  nodeClosing(name: string): Uint8Array {
    let closing = this.closings.get(name);
    if (closing === undefined) this.closings.set(name, (closing = encoded(`},"node":${JSON.stringify(name)}`)));
    return closing;
  }

  /**
   * The end of an eviction due at this deadline (epoch ms): decideFromTolerance's numbers, the
   * instant the deadline as a Date holds (whole ms) and the seconds left rounded up (0: evicted now).
   */
  deadlineEnding(deadline: number): Uint8Array {
    let ending = this.endings.get(deadline);
    if (ending === undefined) {
      const remainingMs = deadline - this.atMs;
      ending = this.ending(remainingMs > 0 ? Math.ceil(remainingMs / 1000) : 0, dateMs(deadline));
      this.endings.set(deadline, ending);
    }
    return ending;
  }

  /** RFC 3339 text of an instant (as Date#toJSON), formatted once per distinct millisecond. */
  instant(ms: number): string {
    let text = this.instants.get(ms);
    if (text === undefined) this.instants.set(ms, (text = new Date(ms).toISOString()));
    return text;
  }

  private ending(afterSeconds: number, evictAtMs: number): Uint8Array {
    const action = afterSeconds > 0 ? 'EvictAfter' : 'EvictNow';
    return encoded(
      `,"action":"${action}","afterSeconds":${JSON.stringify(afterSeconds)},"evictAt":${JSON.stringify(this.instant(evictAtMs))}}`,
    );
  }
}
