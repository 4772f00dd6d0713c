import { resourcesOf, SERVED_RESOURCES, type ServedResource } from './resource-catalogue';

/**
 * Discovery documents in both forms kubectl 1.32 reads (client-go discovery/aggregated_discovery.go):
 * the aggregated `APIGroupDiscoveryList` (apidiscovery.k8s.io/v2) when the Accept header asks for it,
 * the legacy `APIVersions` / `APIGroupList` / `APIResourceList` otherwise. Served groups are derived
 * from the catalogue; a group with no resource is not announced.
 */

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** client-go sends `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,...` first. */
export function wantsAggregated(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .some((part) => /as=APIGroupDiscoveryList/.test(part) && /v=v2(;|$)/.test(part.replace(/\s/g, '')));
}

function groups(): string[] {
  return [...new Set(SERVED_RESOURCES.map((r) => r.group).filter((g) => g !== ''))];
}

export function legacyApiVersions(): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }],
  };
}

export function legacyGroupList(): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups().map((name) => legacyGroup(name)),
  };
}

export function legacyGroup(name: string): object {
  const version = { groupVersion: `${name}/v1`, version: 'v1' };
  return { kind: 'APIGroup', apiVersion: 'v1', name, versions: [version], preferredVersion: version };
}

export function isServedGroup(name: string): boolean {
  return groups().includes(name);
}

export function legacyResourceList(group: string, version: string): object {
  const resources = resourcesOf(group, version).flatMap((r) => [
    {
      name: r.name,
      singularName: r.singularName,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
    },
    ...r.subresources.map((s) => ({
      name: `${r.name}/${s.name}`,
      singularName: '',
      namespaced: r.namespaced,
      ...(s.group !== undefined ? { group: s.group, version: 'v1' } : {}),
      kind: s.kind,
      verbs: s.verbs,
    })),
  ]);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources,
  };
}

/** `/api` (core only) or `/apis` (named groups) as apidiscovery.k8s.io/v2 APIGroupDiscoveryList. */
export function aggregatedDiscovery(core: boolean): object {
  const names = core ? [''] : groups();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: names.map((name) => ({
      metadata: { name },
      versions: [{ version: 'v1', resources: resourcesOf(name, 'v1').map(aggregatedResource), freshness: 'Current' }],
    })),
  };
}

function aggregatedResource(r: ServedResource): object {
  return {
    resource: r.name,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(r.subresources.length
      ? {
          subresources: r.subresources.map((s) => ({
            subresource: s.name,
            responseKind: { group: s.group ?? r.group, version: 'v1', kind: s.kind },
            verbs: s.verbs,
          })),
        }
      : {}),
  };
}
