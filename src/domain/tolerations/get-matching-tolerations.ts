import type { Taint, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions, toleratesTaint } from './tolerates-taint';

/** For one taint, the first toleration (pod order) that tolerates it; `tolerationIndex` null when none does. */
export interface TaintMatch {
  taint: Taint;
  tolerationIndex: number | null;
  toleration: Toleration | null;
}

export interface UsedToleration {
  taint: Taint;
  tolerationIndex: number;
  toleration: Toleration;
}

export interface MatchingTolerations {
  /** True iff every taint is tolerated (true for no taints). */
  allTolerated: boolean;
  /**
   * Upstream's answer: one entry per taint, in taint order, when all are tolerated; empty otherwise
   * (B.1.6 returns `(false, [])` as soon as one taint is untolerated).
   */
  used: UsedToleration[];
  /** One entry per taint, always, so explanations can name the matching toleration or the missing one. */
  matches: TaintMatch[];
}

/**
 * The index of the first toleration in pod order that tolerates the taint, or -1. "First" matters:
 * that toleration's `tolerationSeconds` decides the eviction deadline (A.3, B.8.12).
 */
export function firstToleratingIndex(
  taint: Taint,
  tolerations: readonly Toleration[],
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): number {
  return tolerations.findIndex((toleration) => toleratesTaint(toleration, taint, options));
}

/**
 * Port of `GetMatchingTolerations` (pkg/apis/core/v1/helper/helpers.go, SEMANTICS B.1.6), as used by the
 * taint eviction controller (B.5): no taints → all tolerated, nothing used; otherwise each taint's first
 * tolerating toleration (pod order) is "used", and any untolerated taint makes the answer (false, []).
 * @example getMatchingTolerations([{ key: 'a', effect: 'NoExecute' }], [{ operator: 'Exists', tolerationSeconds: 60 }])
 *   // -> { allTolerated: true, used: [{ taint, tolerationIndex: 0, toleration }], matches: [...] }
 */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): MatchingTolerations {
  const matches: TaintMatch[] = taints.map((taint) => {
    const index = firstToleratingIndex(taint, tolerations, options);
    return index < 0
      ? { taint, tolerationIndex: null, toleration: null }
      : { taint, tolerationIndex: index, toleration: tolerations[index] };
  });
  const allTolerated = matches.every((match) => match.tolerationIndex !== null);
  const used = allTolerated
    ? matches.map((match) => ({
        taint: match.taint,
        tolerationIndex: match.tolerationIndex!,
        toleration: match.toleration!,
      }))
    : [];
  return { allTolerated, used, matches };
}
