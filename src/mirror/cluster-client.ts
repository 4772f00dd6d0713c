import type { CoreV1Api, KubeConfig, PolicyV1Api, Watch } from '@kubernetes/client-node';
import { clientNode } from './client-node';
import type { MirroredResource } from './event-batcher';
import { rawListItems, type RawItemsSink } from './raw-list-items';

/** One page of a chunked list: the items in wire form (`kind` and `apiVersion` set on each). */
export interface ListPage {
  items: Array<Record<string, unknown>>;
  /** metadata.resourceVersion of the list ('' when the server gives none: that resource cannot be watched). */
  resourceVersion: string;
  continue?: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchHandlers {
  /** One line of the watch stream (`object` as JSON, as the server sent it). */
  event(type: WatchEventType, object: Record<string, unknown>): void;
  /** The stream ended: `error` null when the server closed it, else why (`statusCode` for an HTTP answer). */
  done(error: (Error & { statusCode?: number }) | null): void;
}

export interface WatchHandle {
  /** Whether the server answered 200 (the stream is open), as opposed to failing at once. */
  opened: boolean;
  abort(): void;
}

const KINDS: Record<MirroredResource, { kind: string; apiVersion: string; path: string }> = {
  nodes: { kind: 'Node', apiVersion: 'v1', path: '/api/v1/nodes' },
  pods: { kind: 'Pod', apiVersion: 'v1', path: '/api/v1/pods' },
  budgets: { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', path: '/apis/policy/v1/poddisruptionbudgets' },
};

/** The HTTP status of a failed client-node call (ApiException.code, or a watch error's statusCode), if any. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; statusCode?: unknown };
  if (typeof e.statusCode === 'number') return e.statusCode;
  if (typeof e.code === 'number') return e.code;
  return undefined;
}

/**
 * The mirrored cluster through the official client (@kubernetes/client-node 1.x): a KubeConfig read as kubectl
 * reads it (its server, CA, token or client certificate, the chosen context), chunked lists with
 * `limit`/`continue` through CoreV1Api/PolicyV1Api, watches with client-node's `Watch` (bookmarks asked for,
 * resumed from a resourceVersion), and the kubectl-equivalent strategic-merge PATCH of a node.
 *
 * List items are kept as the server sent them (raw-list-items.ts: client-node's typed models are built for the list's
 * metadata only) with `kind`/`apiVersion` set, which list items do not carry, so every object reaches the import
 * exactly as a watch event's object does.
 */
export class ClusterClient {
  private readonly core: CoreV1Api;
  private readonly policy: PolicyV1Api;
  private readonly watcher: Watch;
  readonly server: string;

  private constructor(readonly config: KubeConfig) {
    const k8s = clientNode();
    this.core = config.makeApiClient(k8s.CoreV1Api);
    this.policy = config.makeApiClient(k8s.PolicyV1Api);
    this.watcher = new k8s.Watch(config);
    this.server = config.getCurrentCluster()?.server ?? '';
  }

  /** Reads the kubeconfig (and selects `context` when given); throws a message naming what is wrong. */
  static fromKubeconfig(path: string, context?: string): ClusterClient {
    const config = new (clientNode().KubeConfig)();
    config.loadFromFile(path);
    if (context !== undefined) {
      if (!config.getContextObject(context))
        throw new Error(
          `SYNC_CONTEXT: the kubeconfig ${path} has no context "${context}" (it has: ${config
            .getContexts()
            .map((c) => c.name)
            .join(', ')})`,
        );
      config.setCurrentContext(context);
    }
    if (!config.getCurrentCluster())
      throw new Error(`SYNC_KUBECONFIG: the kubeconfig ${path} names no cluster for its current context`);
    return new ClusterClient(config);
  }

  /** One page of a list (`limit`, `continue`). A 410 on a continue token means: list again from the start. */
  async listPage(resource: MirroredResource, limit: number, cont?: string): Promise<ListPage> {
    const params = { limit, ...(cont ? { _continue: cont } : {}) };
    const raw: RawItemsSink = { items: [] };
    const options = rawListItems(raw);
    const list =
      resource === 'nodes'
        ? await this.core.listNode(params, options)
        : resource === 'pods'
          ? await this.core.listPodForAllNamespaces(params, options)
          : await this.policy.listPodDisruptionBudgetForAllNamespaces(params, options);
    const { kind, apiVersion } = KINDS[resource];
    // the items are this call's own parsed JSON: set in place
    for (const item of raw.items) {
      item.kind = kind;
      item.apiVersion = apiVersion;
    }
    const items = raw.items;
    return {
      items,
      resourceVersion: list.metadata?.resourceVersion ?? '',
      ...(list.metadata?._continue ? { continue: list.metadata._continue } : {}),
    };
  }

  /** A watch from `resourceVersion`, with bookmarks; the handlers hear every line and the end. */
  async watch(
    resource: MirroredResource,
    resourceVersion: string,
    handlers: WatchHandlers,
    timeoutSeconds: number,
  ): Promise<WatchHandle> {
    let ended = false;
    const controller = await this.watcher.watch(
      KINDS[resource].path,
      { resourceVersion, allowWatchBookmarks: true, timeoutSeconds },
      (type: string, object: Record<string, unknown>) => handlers.event(type as WatchEventType, object),
      (error: (Error & { statusCode?: number }) | null) => {
        ended = true;
        handlers.done(error ?? null);
      },
    );
    return { opened: !ended, abort: () => controller.abort() };
  }

  /** `kubectl taint` / `cordon` / `uncordon`: a strategic-merge PATCH of the node with the kubeconfig's credentials. */
  async patchNode(name: string, patch: Record<string, unknown>): Promise<{ resourceVersion: string }> {
    const node = await this.core.patchNode(
      { name, body: patch },
      clientNode().setHeaderOptions('Content-Type', clientNode().PatchStrategy.StrategicMergePatch),
    );
    return { resourceVersion: node.metadata?.resourceVersion ?? '' };
  }
}
