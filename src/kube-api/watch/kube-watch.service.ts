import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { BudgetService } from '../../budgets/budget.service';
import { AppError } from '../../kernel/errors/app-error';
import type { TaintwiseEvent } from '../../kernel/events/event-bus';
import { APP_CONFIG, type AppConfig } from '../../kernel/config/config.schema';
import { compileLabelSelector } from '../../kernel/http/label-selection';
import { MAX_LIMIT } from '../../kernel/http/paging';
import type { StoredBudget } from '../../kernel/model/stored-budget';
import type { StoredNode, StoredPod } from '../../kernel/model/stored-objects';
import { CLOCK } from '../../kernel/tokens';
import type { Clock } from '../../kernel/timers/clock';
import { budgetTable } from '../budget-table';
import { toKubeEvent, type KubeEvent } from '../event-object';
import { compileFieldSelector } from '../field-selector';
import { EVENT_FIELDS, KubeEventsService, selectableEvent } from '../kube-events.service';
import { KubeNodesService } from '../kube-nodes.service';
import { KubePodsService, POD_FIELDS, selectablePod } from '../kube-pods.service';
import type { KubeNode } from '../node-object';
import type { KubePod } from '../pod-object';
import { KubeVersions, pdbKey } from './kube-versions';
import { WatchCache, type WatchEvent, type WatchResource } from './watch-cache';
import { skeleton, type KubeObject, type WatchedKind, type WatchedKinds } from './watched-kinds';

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

/** The API server's default and cap for a watch without timeoutSeconds (min-request-timeout 1800 s). */
const MAX_TIMEOUT_SECONDS = 1800;
const NODE_FIELDS = ['metadata.name', 'spec.unschedulable'];
const BUDGET_FIELDS = ['metadata.name', 'metadata.namespace'];

/**
 * `?watch=1` on nodes, pods, poddisruptionbudgets and events, as the API server answers it: a chunked stream of
 * `{"type","object"}` lines.
 * - no resourceVersion, or "0": ADDED for every object now (the list), then the changes;
 * - a resourceVersion: the changes after it from the watch cache; one older than the cache's window (or from
 *   an earlier process) gets `ERROR` with a 410 Expired Status, and the client relists;
 * - label and field selectors apply to every event; an object that changes and stops matching is sent as
 *   DELETED, one that starts matching as ADDED;
 * - `allowWatchBookmarks`: a BOOKMARK with the newest version every KUBE_WATCH_BOOKMARK_SECONDS;
 * - `timeoutSeconds` (at most 1800) ends the stream, as does a reload of the snapshot (with 410) and shutdown.
 */
@Injectable()
export class KubeWatchService {
  private readonly kinds: WatchedKinds;

  constructor(
    private readonly cache: WatchCache,
    private readonly versions: KubeVersions,
    nodes: KubeNodesService,
    pods: KubePodsService,
    budgets: BudgetService,
    events: KubeEventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    const showBudget = (budget: StoredBudget) => {
      const object = budgets.present(budget);
      object.metadata.resourceVersion = versions.versionOf(
        pdbKey(budget.namespace, budget.name),
        budget.resourceVersion,
      );
      return object;
    };
    this.kinds = {
      nodes: {
        kind: 'Node',
        apiVersion: 'v1',
        fields: NODE_FIELDS,
        selectable: (o) => {
          const node = o as unknown as KubeNode;
          return {
            'metadata.name': node.metadata.name,
            'spec.unschedulable': String(node.spec?.unschedulable === true),
          };
        },
        current: async () => nodes.list({}).items,
        show: (o) => nodes.show(o as StoredNode),
        table: (objects, include, meta) => nodes.table(objects as unknown as KubeNode[], include, meta),
      },
      pods: {
        kind: 'Pod',
        apiVersion: 'v1',
        fields: POD_FIELDS,
        selectable: (o) => selectablePod(o as unknown as KubePod),
        current: async (namespace) => (await pods.list(namespace, {})).items,
        show: (o) => pods.show(o as StoredPod),
        table: (objects, include, meta) => pods.table(objects as unknown as KubePod[], include, meta),
      },
      poddisruptionbudgets: {
        kind: 'PodDisruptionBudget',
        apiVersion: 'policy/v1',
        fields: BUDGET_FIELDS,
        selectable: (o) => ({ 'metadata.name': o.metadata.name, 'metadata.namespace': o.metadata.namespace ?? '' }),
        current: async (namespace) => everyBudget(budgets, namespace).map(showBudget),
        show: (o) => showBudget(o as StoredBudget),
        table: (objects, include, meta) => budgetTable(objects as never, clock.now(), include, meta),
      },
      events: {
        kind: 'Event',
        apiVersion: 'v1',
        fields: EVENT_FIELDS,
        selectable: (o) => selectableEvent(o as unknown as KubeEvent),
        current: async (namespace) => (await events.list(namespace, {})).items,
        show: (o) => toKubeEvent(o as TaintwiseEvent),
        table: (objects, include, meta) => events.table(objects as unknown as KubeEvent[], include, meta),
      },
    } satisfies WatchedKinds;
  }

  /** The version a list answers as its `metadata.resourceVersion`: a watch from it misses nothing after the list. */
  listVersion(): string {
    return String(this.versions.current());
  }

  /**
   * A list request's answer, or with `?watch=1` the watch: the response is then taken over from the framework and
   * streamed until the watch ends. Handlers that call this take the reply with `@Res()` (not passthrough).
   */
  async listOrWatch(
    reply: FastifyReply,
    request: WatchRequest & { watch?: string },
    list: () => unknown,
  ): Promise<void> {
    if (request.watch !== 'true' && request.watch !== '1') {
      await reply.send(await list());
      return;
    }
    const stream = this.prepare(request);
    reply.hijack();
    try {
      await stream(reply.raw);
    } catch (e) {
      // The response is ours now (the error filters cannot answer): end it as the API server ends a failed watch.
      if (!reply.raw.headersSent) reply.raw.writeHead(200, { 'content-type': 'application/json' });
      const status = {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        reason: 'InternalError',
        code: 500,
      };
      reply.raw.end(`${JSON.stringify({ type: 'ERROR', object: { ...status, message: (e as Error).message } })}\n`);
    }
  }

  /**
   * Validates the request (a bad selector or version is an ordinary 400 Status) and answers the function that
   * streams it once the caller has taken the response over.
   */
  prepare(request: WatchRequest): (raw: ServerResponse) => Promise<void> {
    const kind = this.kinds[request.resource];
    const fields = compileFieldSelector(request.fieldSelector, kind.fields);
    const labels = compileLabelSelector(request.labelSelector);
    const since = parseVersion(request.resourceVersion);
    const matches = (object: KubeObject) =>
      (request.namespace === undefined || object.metadata.namespace === request.namespace) &&
      labels(object.metadata.labels ?? {}) &&
      fields(kind.selectable(object));
    return (raw) => this.serve(raw, request, kind, matches, since);
  }

  private async serve(
    raw: ServerResponse,
    request: WatchRequest,
    kind: WatchedKind,
    matches: (object: KubeObject) => boolean,
    since: number | undefined,
  ): Promise<void> {
    const timeout = Math.min(Number(request.timeoutSeconds) || MAX_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    // Events that arrive while the initial list is read are queued, then sent in order.
    const queued: WatchEvent[] = [];
    let live: ((event: WatchEvent) => void) | undefined = undefined;
    let done = false;
    const subscription = this.cache.events.subscribe({
      next: (event) => (live ? live(event) : queued.push(event)),
      complete: () => finish(),
    });
    const expired = this.cache.expired.subscribe(() => finish(this.expiredStatus(since ?? 0)));

    raw.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
    // client-go returns from Watch() once the headers arrive: send them now, not with the first event
    raw.flushHeaders();
    const write = (type: string, object: unknown) => {
      if (!raw.writableEnded) raw.write(`${JSON.stringify({ type, object })}\n`);
    };
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
    const wantsBookmarks = request.allowWatchBookmarks === 'true' || request.allowWatchBookmarks === '1';
    const bookmarks = setInterval(() => {
      if (!wantsBookmarks) return;
      const metadata = { resourceVersion: String(this.versions.current()) };
      write('BOOKMARK', { kind: kind.kind, apiVersion: kind.apiVersion, metadata });
    }, this.config.KUBE_WATCH_BOOKMARK_SECONDS * 1000);
    if (done) return; // the cache completed (shutdown) before this watch began

    let sent = since ?? this.versions.current();
    // With a selector, the objects this watcher holds: one that changes and stops matching is DELETED for it.
    const selective = Boolean(request.labelSelector || request.fieldSelector || request.namespace !== undefined);
    const held = new Set<string>();
    const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    const emit = (type: string, object: KubeObject) => {
      if (selective) {
        if (type === 'DELETED') held.delete(keyOf(object));
        else held.add(keyOf(object));
      }
      write(type, this.present(kind, object, request));
    };
    const send = (event: WatchEvent) => {
      if (event.resource !== request.resource || event.version <= sent) return;
      sent = event.version;
      if (request.namespace !== undefined && event.namespace !== request.namespace) return;
      const object = event.object ? kind.show(event.object) : skeleton(kind, event);
      object.metadata.resourceVersion = String(event.version);
      if (event.type === 'DELETED') {
        if (!selective || held.has(keyOf(object))) emit('DELETED', object);
      } else if (matches(object)) {
        emit(selective && !held.has(keyOf(object)) ? 'ADDED' : event.type, object);
      } else if (selective && held.has(keyOf(object))) {
        emit('DELETED', object);
      }
    };

    if (since === undefined) {
      for (const object of await kind.current(request.namespace)) if (matches(object)) emit('ADDED', object);
    } else if (since < this.cache.oldestResumable) {
      return finish(this.expiredStatus(since));
    } else {
      // Resuming: the client holds what matched up to `since`; a later DELETED of those must reach it.
      if (selective) {
        for (const object of await kind.current(request.namespace)) if (matches(object)) held.add(keyOf(object));
      }
      for (const event of this.cache.after(since)) send(event);
    }
    for (const event of queued) send(event);
    live = send;
  }

  private present(kind: WatchedKind, object: KubeObject, request: WatchRequest): unknown {
    if (!request.table) return object;
    return kind.table([object], request.includeObject, { resourceVersion: object.metadata.resourceVersion });
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

/** Every budget of the namespace (or all), page by page. */
function everyBudget(budgets: BudgetService, namespace: string | undefined): StoredBudget[] {
  const all: StoredBudget[] = [];
  let token: string | undefined;
  do {
    const page = budgets.list(namespace, { limit: MAX_LIMIT, continue: token });
    all.push(...page.items);
    token = page.continue;
  } while (token);
  return all;
}

/** "" and "0" mean "from now, with the current state first"; anything else must be a version. */
function parseVersion(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '' || raw === '0') return undefined;
  if (!/^[0-9]{1,16}$/.test(raw)) {
    throw new AppError('BadRequest', `invalid resource version: ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
