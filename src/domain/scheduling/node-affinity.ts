import type { NodeSelectorRequirement, NodeSelectorTerm, PodSpec } from '../types';
import type { FilterReason } from './filter-reason';

/** `ErrReasonPod` of pkg/scheduler/framework/plugins/nodeaffinity. */
export const NODE_AFFINITY_MESSAGE = "node(s) didn't match Pod's node affinity/selector";

export const NODE_AFFINITY_REASON: FilterReason = Object.freeze({
  plugin: 'NodeAffinity',
  message: NODE_AFFINITY_MESSAGE,
});

/** The part of a node that node affinity reads. */
export interface AffinityTarget {
  name: string;
  labels: Record<string, string>;
}

/** A compiled selector: true when the node matches. */
export type NodeMatcher = (node: AffinityTarget) => boolean;

const NEVER: NodeMatcher = () => false;

/** The only field a node selector term may select on (`metav1.ObjectNameField`). */
const NODE_NAME_FIELD = 'metadata.name';

/**
 * The NodeAffinity filter, compiled once per pod (k8s.io/component-helpers/scheduling/corev1/nodeaffinity
 * `GetRequiredNodeAffinity`): `nodeSelector` (every key present with an equal value) AND the required
 * node affinity (terms ORed, a term's expressions and fields ANDed). Returns undefined when the pod
 * constrains nothing, so the hot loop can skip the plugin as upstream's PreFilter does.
 *
 * Upstream rules kept: an empty `nodeSelectorTerms` list and an empty term match nothing; a term that
 * does not parse (unknown operator, wrong number of values, a non-integer Gt/Lt value) never matches
 * while the other terms still count ("ignore parsing errors for backwards compatibility").
 * @example compileRequiredNodeAffinity({ tolerations: [], nodeSelector: { zone: 'a' } })!({ name: 'n1', labels: { zone:
 * 'a' } }) === true
 */
export function compileRequiredNodeAffinity(pod: Pick<PodSpec, 'nodeSelector' | 'affinity'>): NodeMatcher | undefined {
  const selectorKeys = Object.keys(pod.nodeSelector ?? {});
  const selectorValues = selectorKeys.map((key) => pod.nodeSelector![key]);
  const required = pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required ? (required.nodeSelectorTerms ?? []).map(compileNodeSelectorTerm) : undefined;
  if (selectorKeys.length === 0 && !terms) return undefined;
  return (node) => {
    const labels = node.labels;
    for (let i = 0; i < selectorKeys.length; i++) if (labels[selectorKeys[i]] !== selectorValues[i]) return false;
    if (!terms) return true;
    for (let i = 0; i < terms.length; i++) if (terms[i](node)) return true;
    return false;
  };
}

/**
 * What the compiled NodeAffinity matchers of a pod read from a node: these label keys (sorted, unique)
 * and, when `name` is set, the node name (`matchFields` on `metadata.name`). Two nodes that agree on
 * them get the same answer from every matcher of the pod, so the matchers can run once per group of
 * such nodes (node-table.ts `projectLabels`) instead of once per node.
 */
export interface AffinityKeys {
  readonly labels: readonly string[];
  readonly name: boolean;
}

/**
 * The keys {@link compileRequiredNodeAffinity} and {@link compilePreferredNodeAffinity} read: the
 * nodeSelector keys and the keys of every term's expressions (parsable or not, weight or not: a key
 * too many only makes the groups finer), and the name when a term has a `metadata.name` field.
 * @example nodeAffinityKeys({ nodeSelector: { zone: 'a' }, affinity: null }) // { labels: ['zone'], name: false }
 */
export function nodeAffinityKeys(pod: Pick<PodSpec, 'nodeSelector' | 'affinity'>): AffinityKeys {
  const labels = new Set(Object.keys(pod.nodeSelector ?? {}));
  let name = false;
  const visit = (term: NodeSelectorTerm | undefined) => {
    for (const requirement of term?.matchExpressions ?? []) labels.add(requirement.key);
    for (const requirement of term?.matchFields ?? []) if (requirement.key === NODE_NAME_FIELD) name = true;
  };
  const nodeAffinity = pod.affinity?.nodeAffinity;
  for (const term of nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) visit(term);
  for (const term of nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) visit(term.preference);
  return { labels: [...labels].sort(), name };
}

/** A preferred term, compiled: its weight counts when it matches. */
export interface CompiledPreference {
  weight: number;
  matches: NodeMatcher;
}

/**
 * The NodeAffinity score terms (`NewPreferredSchedulingTerms`): weight-0 terms are dropped as upstream
 * does. Departure: upstream fails the whole scheduling cycle when a preferred term does not parse;
 * validation rejects such pods anyway, so taintwise drops the bad term and scores with the others.
 * Non-positive weights (also rejected by validation, 1..100) are dropped so scores stay in 0..100.
 */
export function compilePreferredNodeAffinity(pod: Pick<PodSpec, 'affinity'>): CompiledPreference[] {
  const preferred = pod.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  const compiled: CompiledPreference[] = [];
  for (const term of preferred) {
    if (!(term.weight > 0)) continue;
    const matches = compileNodeSelectorTerm(term.preference ?? {});
    if (matches !== NEVER) compiled.push({ weight: term.weight, matches });
  }
  return compiled;
}

/** The NodeAffinity raw score: the sum of the weights of the preferred terms the node matches. */
export function preferredAffinityWeight(preferences: readonly CompiledPreference[], node: AffinityTarget): number {
  let sum = 0;
  for (const preference of preferences) if (preference.matches(node)) sum += preference.weight;
  return sum;
}

/**
 * One term (`newNodeSelectorTerm` + `nodeSelectorTerm.match`): all its label expressions and all its
 * field expressions must hold; a term with neither matches nothing; a term that does not parse is NEVER.
 */
export function compileNodeSelectorTerm(term: NodeSelectorTerm): NodeMatcher {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return NEVER;
  const matchers: NodeMatcher[] = [];
  for (const requirement of expressions) {
    const matcher = compileLabelRequirement(requirement);
    if (!matcher) return NEVER;
    matchers.push(matcher);
  }
  for (const requirement of fields) {
    const matcher = compileFieldRequirement(requirement);
    if (!matcher) return NEVER;
    matchers.push(matcher);
  }
  if (matchers.length === 1) return matchers[0];
  return (node) => {
    for (let i = 0; i < matchers.length; i++) if (!matchers[i](node)) return false;
    return true;
  };
}

/**
 * A label expression, as `labels.NewRequirement` builds it and `Requirement.Matches` evaluates it
 * (k8s.io/apimachinery/pkg/labels/selector.go). Undefined when it does not parse: In/NotIn need
 * values, Exists/DoesNotExist take none, Gt/Lt take exactly one integer. Key and value syntax are left
 * to API validation.
 */
function compileLabelRequirement({ key, operator, values = [] }: NodeSelectorRequirement): NodeMatcher | undefined {
  switch (operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      // Only strings are in the set, so a missing label (undefined) is simply not in it.
      const inSet: NodeMatcher = (node) => set.has(node.labels[key]);
      return operator === 'In' ? inSet : (node) => !inSet(node);
    }
    case 'Exists':
    case 'DoesNotExist': {
      if (values.length !== 0) return undefined;
      // Label values are strings; nothing on Object.prototype is, so this also ignores inherited keys.
      const exists: NodeMatcher = (node) => typeof node.labels[key] === 'string';
      return operator === 'Exists' ? exists : (node) => !exists(node);
    }
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1) return undefined;
      const bound = parseGoInt64(values[0]);
      if (bound === undefined) return undefined;
      const sign = operator === 'Gt' ? 1 : -1;
      const compare = integerComparator(bound);
      return (node) => {
        // A missing label or a label value that is not an integer never matches.
        const label = node.labels[key];
        return typeof label === 'string' && compare(label) === sign;
      };
    }
    default:
      return undefined;
  }
}

/**
 * A field expression (`nodeSelectorRequirementsAsFieldSelector`): only In/NotIn with exactly one value.
 * Nodes expose one field, `metadata.name`; any other key reads as `""`, as a `fields.Set` lookup does.
 */
function compileFieldRequirement({ key, operator, values = [] }: NodeSelectorRequirement): NodeMatcher | undefined {
  if ((operator !== 'In' && operator !== 'NotIn') || values.length !== 1) return undefined;
  const wanted = values[0];
  if (key !== NODE_NAME_FIELD) return operator === 'In' ? () => wanted === '' : () => wanted !== '';
  return operator === 'In' ? (node) => node.name === wanted : (node) => node.name !== wanted;
}

const GO_INT = /^[+-]?[0-9]+$/;
/** Up to 15 characters (sign included) an integer is below 10^15 < 2^53: exact as a double. */
const SAFE_DIGITS = 15;

/**
 * A comparator against `bound`: sign(text − bound) when `text` parses as {@link parseGoInt64}, else
 * undefined. A fast path for the short label values of real nodes (`"16"`) avoids the regex and the
 * bigint on every node.
 * @example integerComparator(8n)('016') === 1; integerComparator(8n)('8.5') === undefined
 */
export function integerComparator(bound: bigint): (text: string) => -1 | 0 | 1 | undefined {
  const limit = Number(bound);
  const limitIsExact = Number.isSafeInteger(limit);
  return (text) => {
    const length = text.length;
    if (!limitIsExact || length === 0 || length > SAFE_DIGITS) return compareBig(parseGoInt64(text), bound);
    const first = text.charCodeAt(0);
    let i = first === 43 /* + */ || first === 45 /* - */ ? 1 : 0;
    if (i === length) return undefined;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code < 48 || code > 57) return undefined;
    }
    const value = Number(text);
    return value > limit ? 1 : value < limit ? -1 : 0;
  };
}

function compareBig(value: bigint | undefined, bound: bigint): -1 | 0 | 1 | undefined {
  if (value === undefined) return undefined;
  return value > bound ? 1 : value < bound ? -1 : 0;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `strconv.ParseInt(s, 10, 64)`: an optional sign and decimal digits, leading zeros allowed (unlike the
 * canonical form taint Gt/Lt use, B.1.1), within int64.
 */
export function parseGoInt64(text: string): bigint | undefined {
  if (!GO_INT.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}
