import type { Taint } from '../types';
import { matchTaint, taintToString } from '../tolerations/taint-to-string';
import { aggregateMessages, goQuote } from '../validation/field-errors';
import { KubectlTaintError } from './kubectl-taint-error';
import type { TaintChanges, TaintRemoval } from './parse-taint-specs';

export type TaintOperation = 'tainted' | 'untainted' | 'modified';

export interface AppliedTaintChanges {
  /** The node's new taint list (kubectl's order: added first, then the untouched old ones). */
  taints: Taint[];
  /** Whether the node's taints differ from before (key, value, effect, timeAdded; order aside). */
  changed: boolean;
  /** What kubectl prints: `node/n1 tainted|untainted|modified`. */
  operation: TaintOperation;
}

export interface ApplyTaintOptions {
  overwrite: boolean;
  /** Stamped as `timeAdded` on new taints and on overwritten taints whose value changes. */
  now: Date;
}

/**
 * One node's taints after a `kubectl taint` command: port of `updateTaints` + `reorganizeTaints`
 * (kubectl/pkg/cmd/taint/taint.go, utils.go; SEMANTICS B.3.3, B.8.16).
 * 1. Without `overwrite`, an added (key, effect) already on the node is refused — even with the same value.
 * 2. New list = the added taints, then the old taints whose (key, effect) is not being added; then the
 *    removals (no effect = every effect of the key). A removal that matches nothing fails the whole
 *    change, and all such failures are reported together.
 * 3. Operation: `modified` with `overwrite` or when something was both added and removed, `tainted`
 *    when the list grew, else `untainted` — kubectl's rule, quirks included.
 *
 * taintwise's clock rule (A.3): a new taint gets `timeAdded = now`; an overwritten taint keeps its
 * `timeAdded` when its value is unchanged (re-applying a taint must not restart eviction clocks), and
 * gets `now` when its value changes. When nothing changed, the current list is returned as it was.
 * @throws KubectlTaintError `AlreadyExists` or `NotFound`, with kubectl's message.
 */
export function applyTaintChanges(
  nodeName: string,
  currentTaints: readonly Taint[],
  changes: TaintChanges,
  options: ApplyTaintOptions,
): AppliedTaintChanges {
  if (!options.overwrite) assertNotAlreadyPresent(nodeName, currentTaints, changes.add);

  const added = changes.add.map((taint) => stampTimeAdded(taint, currentTaints, options.now));
  const kept = currentTaints.filter((old) => !added.some((taint) => matchTaint(taint, old)));
  const merged = [...added, ...kept];
  const grew = merged.length !== currentTaints.length;

  let taints = merged;
  const notFound: string[] = [];
  for (const removal of changes.remove) {
    const remaining = taints.filter((taint) => !matchesRemoval(taint, removal));
    if (remaining.length === taints.length) notFound.push(`taint ${goQuote(taintToString(removal))} not found`);
    taints = remaining;
  }
  if (notFound.length > 0) throw new KubectlTaintError('NotFound', aggregateMessages(notFound), nodeName);

  const removed = changes.remove.length > 0;
  const operation: TaintOperation =
    options.overwrite || (grew && removed) ? 'modified' : grew ? 'tainted' : 'untainted';
  const changed = !sameTaints(currentTaints, taints);
  return { taints: changed ? taints : currentTaints.map((taint) => ({ ...taint })), changed, operation };
}

/** `checkIfTaintsAlreadyExists`: the keys of every added taint already present, joined by `,`. */
function assertNotAlreadyPresent(nodeName: string, current: readonly Taint[], add: readonly Taint[]): void {
  const existing = add.flatMap((taint) => current.filter((old) => matchTaint(taint, old)).map(() => taint.key));
  if (existing.length > 0) {
    throw new KubectlTaintError(
      'AlreadyExists',
      `node ${nodeName} already has ${existing.join(',')} taint(s) with same effect(s) and --overwrite is false`,
      nodeName,
    );
  }
}

function stampTimeAdded(taint: Taint, current: readonly Taint[], now: Date): Taint {
  const old = current.find((candidate) => matchTaint(candidate, taint));
  const unchanged = old !== undefined && (old.value ?? '') === (taint.value ?? '');
  const result: Taint = { key: taint.key, effect: taint.effect };
  if (taint.value) result.value = taint.value;
  if (unchanged) {
    if (old.timeAdded !== undefined) result.timeAdded = old.timeAdded;
  } else {
    result.timeAdded = now;
  }
  return result;
}

function matchesRemoval(taint: Taint, removal: TaintRemoval): boolean {
  return removal.effect === undefined ? taint.key === removal.key : matchTaint(taint, removal);
}

function taintSignature(taint: Taint): string {
  return JSON.stringify([taint.key, taint.effect, taint.value ?? '', taint.timeAdded?.getTime() ?? null]);
}

function sameTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map(taintSignature).sort();
  const right = b.map(taintSignature).sort();
  return left.every((signature, i) => signature === right[i]);
}
