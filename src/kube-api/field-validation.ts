import { AppError } from '../kernel/errors/app-error';

/**
 * Server-side field validation (`fieldValidation=Strict`, what kubectl sends for `create -f` with its
 * default `--validate=strict`): a field the core/v1 type does not have is refused as the API server's
 * strict decoder does ("strict decoding error: unknown field ..."). The known fields are those of
 * k8s.io/api core/v1 types.go (v1.32) for the parts a Node or Pod manifest holds; deeper structures
 * (affinity terms, probes, volumes...) are not walked. `Ignore` and `Warn` accept everything.
 */
const OBJECT = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];
const OBJECT_META = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];
const BUDGET_SPEC = ['minAvailable', 'maxUnavailable', 'selector', 'unhealthyPodEvictionPolicy'];
const NODE_SPEC = ['podCIDR', 'podCIDRs', 'providerID', 'unschedulable', 'taints', 'configSource', 'externalID'];
const TAINT = ['key', 'value', 'effect', 'timeAdded'];
const POD_SPEC = [
  'volumes',
  'initContainers',
  'containers',
  'ephemeralContainers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'automountServiceAccountToken',
  'nodeName',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'shareProcessNamespace',
  'securityContext',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'hostAliases',
  'priorityClassName',
  'priority',
  'dnsConfig',
  'readinessGates',
  'runtimeClassName',
  'enableServiceLinks',
  'preemptionPolicy',
  'overhead',
  'topologySpreadConstraints',
  'setHostnameAsFQDN',
  'os',
  'hostUsers',
  'schedulingGates',
  'resourceClaims',
  'resources',
];
const CONTAINER = [
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'env',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
];
const RESOURCES = ['limits', 'requests', 'claims'];
const TOLERATION = ['key', 'operator', 'value', 'effect', 'tolerationSeconds'];

export function checkFieldValidation(
  directive: string | undefined,
  kind: 'Node' | 'Pod' | 'PodDisruptionBudget',
  object: unknown,
): void {
  if (directive === undefined || directive === '' || directive === 'Ignore' || directive === 'Warn') return;
  if (directive !== 'Strict') {
    throw new AppError(
      'BadRequest',
      `fieldValidation ${JSON.stringify(directive)} is invalid: valid values are "Ignore", "Warn" and "Strict"`,
    );
  }
  const unknown: string[] = [];
  const o = asObject(object);
  if (!o) return;
  unknownIn(o, OBJECT, '', unknown);
  unknownIn(asObject(o.metadata), OBJECT_META, 'metadata', unknown);
  const spec = asObject(o.spec);
  if (kind === 'Node') {
    unknownIn(spec, NODE_SPEC, 'spec', unknown);
    listIn(spec?.taints, TAINT, 'spec.taints', unknown);
  } else if (kind === 'PodDisruptionBudget') {
    unknownIn(spec, BUDGET_SPEC, 'spec', unknown);
    unknownIn(asObject(spec?.selector), ['matchLabels', 'matchExpressions'], 'spec.selector', unknown);
  } else {
    unknownIn(spec, POD_SPEC, 'spec', unknown);
    listIn(spec?.tolerations, TOLERATION, 'spec.tolerations', unknown);
    for (const list of ['containers', 'initContainers']) {
      listIn(spec?.[list], CONTAINER, `spec.${list}`, unknown);
      if (Array.isArray(spec?.[list])) {
        (spec[list] as unknown[]).forEach((c, i) =>
          unknownIn(asObject(asObject(c)?.resources), RESOURCES, `spec.${list}[${i}].resources`, unknown),
        );
      }
    }
  }
  if (unknown.length) {
    const fields = unknown.map((f) => `unknown field ${JSON.stringify(f)}`);
    throw new AppError(
      'BadRequest',
      `${kind} in version "v1" cannot be handled as a ${kind}: strict decoding error: ${fields.join(', ')}`,
    );
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function unknownIn(o: Record<string, unknown> | undefined, known: string[], path: string, out: string[]): void {
  if (!o) return;
  for (const key of Object.keys(o)) if (!known.includes(key)) out.push(path ? `${path}.${key}` : key);
}

function listIn(list: unknown, known: string[], path: string, out: string[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((e, i) => unknownIn(asObject(e), known, `${path}[${i}]`, out));
}
