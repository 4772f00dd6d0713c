import type { Taint } from '../types';

/** The filter plugins taintwise runs, in upstream's default order (SEMANTICS B.4.3). */
export const FILTER_PLUGINS = ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit'] as const;
export type FilterPlugin = (typeof FILTER_PLUGINS)[number];

/**
 * Why one filter plugin rejected a node. `message` is the reason string upstream's status carries
 * (the text the FitError histogram counts); `taint` and `resource` are taintwise's structured
 * additions (SEMANTICS A.2).
 */
export interface FilterReason {
  plugin: FilterPlugin;
  message: string;
  taint?: Taint;
  resource?: string;
}
