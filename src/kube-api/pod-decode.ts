import { AppError } from '../kernel/errors/app-error';

const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The parts of a Pod spec the request arithmetic reads, as the API server's decoder leaves them. */
export interface DecodedPodResources {
  containers: Array<Record<string, any>>;
  initContainers: Array<Record<string, any>>;
  overhead: Record<string, string> | null;
}

/**
 * The decode step of the API server for the parts of a Pod whose arithmetic taintwise runs (containers,
 * init containers, their resources, the pod's overhead).
 * - A value of the wrong JSON type is refused as the server's JSON decoder refuses it, with a 400 before any
 *   validation ("Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct
 *   field ..."). Without it, an array of requests reached the quantity parser and came back as
 *   `Invalid value: "[object Object]"` (found by the fuzzer).
 * - A quantity may be a JSON number, as `cpu: 1` in a YAML manifest reaches the server from kubectl; it is
 *   read as its decimal text. `null` decodes to Go's zero value: a null container is an empty one, a null
 *   quantity is "0".
 */
export function decodePodResources(spec: Record<string, unknown>): DecodedPodResources {
  return {
    containers: containerList(spec, 'containers'),
    initContainers: containerList(spec, 'initContainers'),
    overhead: resourceList(spec.overhead, 'PodSpec', 'spec.overhead'),
  };
}

function containerList(
  spec: Record<string, unknown>,
  list: 'containers' | 'initContainers',
): Array<Record<string, any>> {
  const containers = spec[list];
  expectType(containers, 'array', 'PodSpec', `spec.${list}`, '[]v1.Container');
  if (!Array.isArray(containers)) return [];
  return containers.map((container: unknown) => {
    expectType(container, 'object', 'PodSpec', `spec.${list}`, 'v1.Container');
    const c = (container ?? {}) as Record<string, any>;
    const path = `spec.${list}.resources`;
    expectType(c.resources, 'object', 'Container', path, 'v1.ResourceRequirements');
    if (c.resources == null) return c;
    const resources: Record<string, unknown> = { ...c.resources };
    for (const key of ['requests', 'limits'] as const) {
      const decoded = resourceList(c.resources[key], 'ResourceRequirements', `${path}.${key}`);
      if (decoded) resources[key] = decoded;
    }
    return { ...c, resources };
  });
}

function resourceList(value: unknown, struct: string, path: string): Record<string, string> | null {
  expectType(value, 'object', struct, path, 'v1.ResourceList');
  if (value == null) return null;
  const out: Record<string, string> = {};
  for (const [resource, quantity] of Object.entries(value)) {
    if (quantity === null) out[resource] = '0';
    else if (typeof quantity === 'string') out[resource] = quantity;
    else if (typeof quantity === 'number' && Number.isFinite(quantity)) out[resource] = String(quantity);
    // resource.Quantity decodes a JSON string or number; any other token reaches ParseQuantity as text.
    else throw cannotHandle(QUANTITY_FORMAT);
  }
  return out;
}

function expectType(value: unknown, want: 'array' | 'object', struct: string, path: string, goType: string): void {
  if (value == null || jsonType(value) === want) return;
  throw cannotHandle(
    `json: cannot unmarshal ${jsonType(value)} into Go struct field ${struct}.${path} of type ${goType}`,
  );
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // 'string' | 'number' | 'object'
}

function cannotHandle(reason: string): AppError {
  return new AppError('BadRequest', `Pod in version "v1" cannot be handled as a Pod: ${reason}`);
}
