import type * as ClientNodeModule from '@kubernetes/client-node';

export type ClientNode = typeof ClientNodeModule;

let loaded: ClientNode | undefined;

/**
 * @kubernetes/client-node, loaded the first time a mirror needs it. Its generated API and model classes are
 * ~27 MiB of heap and a large share of the objects every full collection traces (issue 16); a service that
 * mirrors no cluster (no SYNC_KUBECONFIG) never loads it. Only types are imported statically elsewhere.
 */
export function clientNode(): ClientNode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load is the point
  return (loaded ??= require('@kubernetes/client-node') as ClientNode);
}
