import { createHash } from 'node:crypto';
import { SERVED_RESOURCES, type ServedResource } from './resource-catalogue';

/**
 * `/openapi/v3`: what kubectl 1.32 reads before `create -f` / `apply -f` with the default
 * `--validate=strict`. kubectl's QueryParamVerifierV3 (cli-runtime pkg/resource/query_param_verifier_v3.go)
 * fetches the group-version document and looks for a PATCH operation tagged with the object's
 * `x-kubernetes-group-version-kind` that takes a `fieldValidation` parameter; when found it leaves
 * validation to the server (sending `fieldValidation=Strict`) and never downloads `/openapi/v2`.
 * So the documents describe the paths and parameters, and the object schemas only loosely
 * (`type: object`): the server checks the fields (field-validation.ts).
 */
const PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation', 'pretty'].map((name) => ({
  name,
  in: 'query',
  schema: { type: 'string', uniqueItems: true },
}));

function groupVersionPath(group: string): string {
  return group === '' ? 'api/v1' : `apis/${group}/v1`;
}

export function openApiRoot(): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const group of new Set(SERVED_RESOURCES.map((r) => r.group))) {
    const path = groupVersionPath(group);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(group)}` };
  }
  return { paths };
}

function hashOf(group: string): string {
  return createHash('sha512')
    .update(JSON.stringify(groupDocument(group)))
    .digest('hex')
    .toUpperCase()
    .slice(0, 128);
}

export function isOpenApiGroupPath(path: string): string | undefined {
  return [...new Set(SERVED_RESOURCES.map((r) => r.group))].find((g) => groupVersionPath(g) === path);
}

export function groupDocument(group: string): object {
  const paths: Record<string, object> = {};
  for (const r of SERVED_RESOURCES.filter((x) => x.group === group)) {
    const base = `/${groupVersionPath(group)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.name}`;
    const gvk = { group: r.group, version: r.version, kind: r.kind };
    const op = (verb: string) => ({
      operationId: `${verb}${r.kind}`,
      parameters: PARAMETERS,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref(r) } } } },
      'x-kubernetes-action': verb,
      'x-kubernetes-group-version-kind': gvk,
    });
    const writable = r.verbs.includes('create');
    paths[base] = { get: op('list'), ...(writable ? { post: op('post') } : {}) };
    paths[`${base}/{name}`] = {
      get: op('get'),
      ...(r.verbs.includes('update') ? { put: op('put') } : {}),
      ...(r.verbs.includes('patch') ? { patch: op('patch') } : {}),
      ...(r.verbs.includes('delete') ? { delete: op('delete') } : {}),
    };
  }
  const schemas: Record<string, object> = {};
  for (const r of SERVED_RESOURCES.filter((x) => x.group === group)) {
    schemas[schemaName(r)] = {
      type: 'object',
      description: `${r.kind} (the fields taintwise models are described in the README's "Use kubectl")`,
      'x-kubernetes-group-version-kind': [{ group: r.group, version: r.version, kind: r.kind }],
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'taintwise', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}

function schemaName(r: ServedResource): string {
  return `io.k8s.api.${r.group === '' ? 'core' : r.group}.v1.${r.kind}`;
}

function ref(r: ServedResource): object {
  return { $ref: `#/components/schemas/${schemaName(r)}` };
}
