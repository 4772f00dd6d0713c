import { canonicalAmount, isNegativeQuantity } from '../resources/quantity';
import type {
  Affinity,
  FieldError,
  NodeCondition,
  NodeSelectorTerm,
  PodResources,
  ResourceList,
  Taint,
  Toleration,
} from '../types';
import { invalid, notSupported, required } from './field-errors';
import {
  isDns1123Subdomain,
  isValidLabelValue,
  matchesDns1123Subdomain,
  maxLenCharactersError,
  validateLabelName,
} from './label-names';
import { validateNodeTaints } from './validate-node-taints';
import { validateTolerations, type TolerationValidationOptions } from './validate-tolerations';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUANTITY_HINT = "must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const CONDITION_STATUSES = ['True', 'False', 'Unknown'];
const NODE_SELECTOR_OPERATORS = ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'];
const FIELD_SELECTOR_OPERATORS = ['In', 'NotIn'];
const POD_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown', 'Evicted'];

/** `ValidateLabels` (apimachinery metav1): keys are qualified names, values label values. */
export function validateLabels(labels: Record<string, string>, path: string): FieldError[] {
  return Object.entries(labels).flatMap(([k, v]) => [
    ...validateLabelName(k, path),
    ...isValidLabelValue(v).map((m) => invalid(path, v, m)),
  ]);
}

/** Object names: nodes and pods are DNS-1123 subdomains (`ValidateNodeName`, `ValidatePodName`). */
export function validateObjectName(name: string, path = 'name'): FieldError[] {
  if (name.length === 0) return [required(path, 'name or generateName is required')];
  return isDns1123Subdomain(name, maxLenCharactersError).map((m) => invalid(path, name, m));
}

/** Namespaces are DNS-1123 labels (`ValidateNamespaceName`). */
export function validateNamespaceName(namespace: string, path = 'namespace'): FieldError[] {
  if (namespace.length === 0) return [required(path)];
  const errors: FieldError[] = [];
  if (namespace.length > 63) errors.push(invalid(path, namespace, maxLenCharactersError(63)));
  if (!DNS1123_LABEL.test(namespace)) {
    // IsDNS1123Label: a valid subdomain that is no valid label can only be wrong by its dots
    if (matchesDns1123Subdomain(namespace)) errors.push(invalid(path, namespace, 'must not contain dots'));
    else
      errors.push(
        invalid(
          path,
          namespace,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
  }
  return errors;
}

/** Resource lists: every quantity parses (`ValidateResourceQuantityValue`) and is not negative. */
export function validateResourceList(list: ResourceList | null | undefined, path: string): FieldError[] {
  if (!list) return [];
  return Object.entries(list).flatMap(([name, value]) => {
    const at = `${path}[${name}]`;
    const nameErrors =
      name === 'cpu' ||
      name === 'memory' ||
      name === 'pods' ||
      name === 'ephemeral-storage' ||
      name.startsWith('hugepages-')
        ? []
        : validateLabelName(name, at);
    if (isNegativeQuantity(value)) return [...nameErrors, invalid(at, value, 'must be greater than or equal to 0')];
    if (canonicalAmount(name, value) === undefined) return [...nameErrors, invalid(at, value, QUANTITY_HINT)];
    return nameErrors;
  });
}

export interface NodeObject {
  name: string;
  labels: Record<string, string>;
  taints: Taint[];
  conditions: NodeCondition[];
  allocatable: ResourceList | null;
}

/** The rules of `ValidateNode` that taintwise stores (SEMANTICS B.2.2 for taints). */
export function validateNodeObject(node: NodeObject): FieldError[] {
  return [
    ...validateObjectName(node.name),
    ...validateLabels(node.labels, 'labels'),
    ...validateNodeTaints(node.taints, 'taints'),
    ...validateResourceList(node.allocatable, 'allocatable'),
    ...node.conditions.flatMap((c, i) => [
      ...(c.type ? [] : [required(`conditions[${i}].type`)]),
      ...(CONDITION_STATUSES.includes(c.status)
        ? []
        : [notSupported(`conditions[${i}].status`, c.status, CONDITION_STATUSES)]),
    ]),
  ];
}

export interface PodObject {
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  affinity: Affinity | null;
  resources: PodResources;
  phase?: string;
}

/** The rules of `ValidatePodSpec` that concern scheduling (B.2.1 for tolerations). */
export function validatePodSpecObject(pod: PodObject, options: TolerationValidationOptions): FieldError[] {
  return [
    ...validateTolerations(pod.tolerations, 'tolerations', options),
    ...validateLabels(pod.nodeSelector, 'nodeSelector'),
    ...validateNodeAffinity(pod.affinity, 'affinity.nodeAffinity'),
    ...validateResourceList(pod.resources.requests, 'resources.requests'),
    ...validateResourceList(pod.resources.limits, 'resources.limits'),
    ...(pod.phase === undefined || POD_PHASES.includes(pod.phase)
      ? []
      : [notSupported('phase', pod.phase, POD_PHASES)]),
  ];
}

/** `ValidateNodeSelectorRequirement` / `ValidatePreferredSchedulingTerms` (validation.go). */
export function validateNodeAffinity(affinity: Affinity | null, path: string): FieldError[] {
  const na = affinity?.nodeAffinity;
  if (!na) return [];
  const errors: FieldError[] = [];
  const required_ = na.requiredDuringSchedulingIgnoredDuringExecution;
  if (required_) {
    const termsPath = `${path}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    if (required_.nodeSelectorTerms.length === 0)
      errors.push(required(termsPath, 'must have at least one node selector term'));
    required_.nodeSelectorTerms.forEach((t, i) => errors.push(...validateTerm(t, `${termsPath}[${i}]`)));
  }
  (na.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((p, i) => {
    const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    if (p.weight < 1 || p.weight > 100) errors.push(invalid(`${at}.weight`, p.weight, 'must be in the range 1-100'));
    errors.push(...validateTerm(p.preference, `${at}.preference`));
  });
  return errors;
}

function validateTerm(term: NodeSelectorTerm, path: string): FieldError[] {
  const errors: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((r, j) => {
    const at = `${path}.matchExpressions[${j}]`;
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push({
            field: `${at}.values`,
            type: 'Forbidden',
            message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          });
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1)
          errors.push(required(`${at}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        break;
      default:
        errors.push(notSupported(`${at}.operator`, r.operator, NODE_SELECTOR_OPERATORS));
    }
    errors.push(...validateLabelName(r.key, `${at}.key`));
  });
  (term.matchFields ?? []).forEach((r, j) => {
    const at = `${path}.matchFields[${j}]`;
    if (r.key !== 'metadata.name') errors.push(notSupported(`${at}.key`, r.key, ['metadata.name']));
    if (!FIELD_SELECTOR_OPERATORS.includes(r.operator))
      errors.push(notSupported(`${at}.operator`, r.operator, FIELD_SELECTOR_OPERATORS));
    else if ((r.values ?? []).length !== 1)
      errors.push(
        required(`${at}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"),
      );
  });
  return errors;
}
