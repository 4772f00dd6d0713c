import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { AppError } from '../../kernel/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../kernel/config/config.schema';
import { compileLabelSelector } from '../../kernel/http/label-selection';
import type { StoredNode, StoredPod } from '../../kernel/model/stored-objects';
import { compileFieldSelector } from '../field-selector';
import { KubeNodesService } from '../kube-nodes.service';
import { KubePodsService } from '../kube-pods.service';
import { toKubeNode, type KubeNode } from '../node-object';
import { toKubePod, type KubePod } from '../pod-object';
import { KubeVersions } from './kube-versions';
import { WatchCache, type WatchEvent, type WatchResource } from './watch-cache';

/** What a `?watch=1` request asks (apimachinery ListOptions). */
export interface WatchRequest {
  resource: WatchResource;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: string;
  timeoutSeconds?: string;
  /** `Accept: …;as=Table`: each event's object is a one-row Table (kubectl get -w). */
  table: boolean;
  includeObject?: string;
}

type KubeObject = KubeNode | KubePod;

const NODE_FIELDS = ['metadata.name', 'spec.unschedulable'];
const POD_FIELDS = ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase'];
/** The API server's default and cap for a watch without timeoutSeconds (min-request-timeout 1800 s). */
const MAX_TIMEOUT_SECONDS = 1800;

/**
 * `?watch=1` on nodes and pods, as the API server answers it: a chunked stream of `{"type","object"}` lines.
 * - no resourceVersion, or "0": ADDED for every object now (the list), then the changes;
 * - a resourceVersion: the changes after it from the watch cache; one older than the cache's window (or from
 *   an earlier process) gets `ERROR` with a 410 Expired Status, and the client relists;
 * - label and field selectors apply to every event; an object that changes and stops matching is sent as
 *   DELETED;
 * - `allowWatchBookmarks`: a BOOKMARK with the newest version every KUBE_WATCH_BOOKMARK_SECONDS;
 * - `timeoutSeconds` (at most 1800) ends the stream, as does a reload of the snapshot (with 410).
 */
@Injectable()
export class KubeWatchService {
  constructor(
    private readonly cache: WatchCache,
    private readonly versions: KubeVersions,
    private readonly nodes: KubeNodesService,
    private readonly pods: KubePodsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Validates the request (a bad selector or version is an ordinary 400 Status) and answers the function that
   * streams it once the caller has taken the response over.
   */
  prepare(request: WatchRequest): (raw: ServerResponse) => Promise<void> {
    const fields = compileFieldSelector(request.fieldSelector, request.resource === 'nodes' ? NODE_FIELDS : POD_FIELDS);
    const labels = compileLabelSelector(request.labelSelector);
    const since = parseVersion(request.resourceVersion);
    return (raw) => this.serve(raw, request, fields, labels, since);
  }

  private async serve(
    raw: ServerResponse,
    request: WatchRequest,
    fields: (fields: Record<string, string>) => boolean,
    labels: (labels: Record<string, string>) => boolean,
    since: number | undefined,
  ): Promise<void> {
    const timeout = Math.min(Number(request.timeoutSeconds) || MAX_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    const matches = (object: KubeObject) =>
      (request.namespace === undefined || namespaceOf(object) === request.namespace) &&
      labels((object.metadata as { labels?: Record<string, string> }).labels ?? {}) &&
      fields(selectable(object));

    // Events that arrive while the initial list is read are queued, then sent in order.
    const queued: WatchEvent[] = [];
    let live: ((event: WatchEvent) => void) | undefined;
    const subscription = this.cache.events.subscribe((event) => (live ? live(event) : queued.push(event)));
    const expired = this.cache.expired.subscribe(() => finish(this.expiredStatus(since ?? 0)));

    raw.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
    const write = (type: string, object: unknown) => {
      if (!raw.writableEnded) raw.write(`${JSON.stringify({ type, object })}\n`);
    };
    let done = false;
    const finish = (status?: object) => {
      if (done) return;
      done = true;
      if (status) write('ERROR', status);
      subscription.unsubscribe();
      expired.unsubscribe();
      clearInterval(bookmarks);
      clearTimeout(timer);
      raw.end();
    };
    raw.on('close', () => finish());
    const timer = setTimeout(() => finish(), timeout * 1000);
    const bookmarks = setInterval(() => {
      if (request.allowWatchBookmarks === 'true' || request.allowWatchBookmarks === '1') {
        write('BOOKMARK', {
          kind: request.resource === 'nodes' ? 'Node' : 'Pod',
          apiVersion: 'v1',
          metadata: { resourceVersion: String(this.versions.current()) },
        });
      }
    }, this.config.KUBE_WATCH_BOOKMARK_SECONDS * 1000);

    let sent = since ?? this.versions.current();
    // With a selector, the objects this watcher holds: one that changes and stops matching is DELETED for it.
    const selective = request.labelSelector || request.fieldSelector || request.namespace !== undefined;
    const held = new Set<string>();
    const keyOf = (o: KubeObject) => `${namespaceOf(o) ?? ''}/${o.metadata.name}`;
    const emit = (type: string, object: KubeObject) => {
      if (selective) {
        if (type === 'DELETED') held.delete(keyOf(object));
        else held.add(keyOf(object));
      }
      write(type, this.present(object, request));
    };
    const send = (event: WatchEvent) => {
      if (event.resource !== request.resource || event.version <= sent) return;
      sent = event.version;
      if (request.namespace !== undefined && event.namespace !== request.namespace) return;
      const object = this.objectOf(event);
      if (event.type === 'DELETED') {
        if (!selective || held.has(keyOf(object))) emit('DELETED', object);
      } else if (matches(object)) {
        emit(selective && !held.has(keyOf(object)) ? 'ADDED' : event.type, object);
      } else if (selective && held.has(keyOf(object))) {
        emit('DELETED', object);
      }
    };

    if (since === undefined) {
      for (const object of await this.current(request)) if (matches(object)) emit('ADDED', object);
    } else if (since < this.cache.oldestResumable) {
      return finish(this.expiredStatus(since));
    } else {
      // Resuming: the client holds what matched up to `since`; a later DELETED of those must reach it.
      if (selective) for (const object of await this.current(request)) if (matches(object)) held.add(keyOf(object));
      for (const event of this.cache.after(since)) send(event);
    }
    for (const event of queued) send(event);
    live = send;
  }

  /** Every object of the resource now, with its version (the initial ADDED events). */
  private async current(request: WatchRequest): Promise<KubeObject[]> {
    if (request.resource === 'nodes') return this.nodes.list({}).items;
    return (await this.pods.list(request.namespace, {})).items;
  }

  private objectOf(event: WatchEvent): KubeObject {
    if (!event.object) {
      // a deleted object of which only the name is known
      return {
        kind: event.resource === 'nodes' ? 'Node' : 'Pod',
        apiVersion: 'v1',
        metadata: {
          name: event.name,
          ...(event.namespace ? { namespace: event.namespace } : {}),
          resourceVersion: String(event.version),
        },
      } as unknown as KubeObject;
    }
    const object =
      event.resource === 'nodes' ? toKubeNode(event.object as StoredNode) : toKubePod(event.object as StoredPod);
    object.metadata.resourceVersion = String(event.version);
    return object;
  }

  private present(object: KubeObject, request: WatchRequest): unknown {
    if (!request.table) return object;
    const meta = { resourceVersion: object.metadata.resourceVersion };
    return object.kind === 'Node'
      ? this.nodes.table([object as KubeNode], request.includeObject, meta)
      : this.pods.table([object as KubePod], request.includeObject, meta);
  }

  private expiredStatus(since: number): object {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${since} (${this.cache.oldestResumable})`,
      reason: 'Expired',
      code: 410,
    };
  }
}

/** "" and "0" mean "from now, with the current state first"; anything else must be a version. */
function parseVersion(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '' || raw === '0') return undefined;
  if (!/^[0-9]{1,16}$/.test(raw)) {
    throw new AppError('BadRequest', `invalid resource version: ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function namespaceOf(object: KubeObject): string | undefined {
  return 'namespace' in object.metadata ? object.metadata.namespace : undefined;
}

function selectable(object: KubeObject): Record<string, string> {
  if (object.kind === 'Node') {
    const node = object as KubeNode;
    return { 'metadata.name': node.metadata.name, 'spec.unschedulable': String(node.spec?.unschedulable === true) };
  }
  const pod = object as KubePod;
  return {
    'metadata.name': pod.metadata.name,
    'metadata.namespace': pod.metadata.namespace,
    'spec.nodeName': pod.spec?.nodeName ?? '',
    'status.phase': pod.status?.phase ?? '',
  };
}
