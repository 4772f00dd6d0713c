/** `framework.MaxNodeScore`. */
export const MAX_NODE_SCORE = 100;

/**
 * One score after `helper.DefaultNormalizeScore(maxPriority, reverse, scores)`
 * (pkg/scheduler/framework/plugins/helper/normalize_score.go, SEMANTICS B.4.1): with `maxRaw` the
 * largest raw score over the nodes being scored, `maxPriority·raw/maxRaw` in integer (truncating)
 * division, then `maxPriority − that` when reversed. When `maxRaw` is 0 every node gets `maxPriority`
 * if reversed, and keeps its raw score (0) otherwise.
 * @example normalizeScore(1, 3, true) === 67; normalizeScore(2, 2, true) === 0; normalizeScore(0, 0, false) === 0
 */
export function normalizeScore(raw: number, maxRaw: number, reverse: boolean, maxPriority = MAX_NODE_SCORE): number {
  if (maxRaw === 0) return reverse ? maxPriority : raw;
  const score = Math.trunc((maxPriority * raw) / maxRaw);
  return reverse ? maxPriority - score : score;
}

/** `DefaultNormalizeScore` over a whole list (returns a new array). */
export function defaultNormalizeScore(
  raws: readonly number[],
  reverse: boolean,
  maxPriority = MAX_NODE_SCORE,
): number[] {
  let maxRaw = 0;
  for (const raw of raws) if (raw > maxRaw) maxRaw = raw;
  return raws.map((raw) => normalizeScore(raw, maxRaw, reverse, maxPriority));
}

/** Upstream default plugin weights (apis/config/v1/default_plugins.go). */
export const TAINT_TOLERATION_WEIGHT = 3;
export const NODE_AFFINITY_WEIGHT = 2;

/**
 * The total in 0..100: upstream adds `weight × normalised score` over the score plugins that ran;
 * taintwise divides by the sum of those weights so the total stays on the 0..100 scale, rounding half
 * up to an integer. NodeAffinity's PreScore returns Skip when the pod has no preferred terms, so then
 * the total is the TaintToleration score alone (not 3/5 of it).
 * @example totalScore(100, 0, true) === 60; totalScore(100, 0, false) === 100; totalScore(67, 50, true) === 60
 */
export function totalScore(taintToleration: number, nodeAffinity: number, nodeAffinityRan: boolean): number {
  if (!nodeAffinityRan) return taintToleration;
  return Math.round(
    (TAINT_TOLERATION_WEIGHT * taintToleration + NODE_AFFINITY_WEIGHT * nodeAffinity) /
      (TAINT_TOLERATION_WEIGHT + NODE_AFFINITY_WEIGHT),
  );
}
