import { Inject, Injectable } from '@nestjs/common';
import { BindingService } from '../inventory/binding.service';
import { PodService } from '../inventory/pod.service';
import { AppError } from '../kernel/errors/app-error';
import { compileLabelSelector } from '../kernel/http/label-selection';
import type { Actor } from '../kernel/persistence/change-set';
import type { Role } from '../kernel/auth/roles';
import type { StoredPod } from '../kernel/model/stored-objects';
import { CLOCK } from '../kernel/tokens';
import type { Clock } from '../kernel/timers/clock';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import { EvictionApiService } from '../evictions/eviction-api.service';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { podBodySchema } from '../kernel/http/input/body-schemas';
import { parseBody } from '../kernel/http/input/parse-body';
import type { PatchType } from './apply-patch';
import { guaranteedPatch } from './guaranteed-patch';
import { compileFieldSelector, pinnedValue } from './field-selector';
import { kubeLimit } from './list-limit';
import { asKubePodError, podWriteBody } from './pod-body';
import { toKubePod, type KubePod } from './pod-object';
import { KubeVersions, podKey } from './watch/kube-versions';
import { podTable } from './pod-table';
import type { Table } from './table';
import type { ListOptions } from './kube-nodes.service';

/** pkg/registry/core/pod/strategy.go PodToSelectableFields, the ones kubectl uses. */
export const POD_FIELDS = ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase'];
const PAGE = 500;

/**
 * The Kubernetes API's pods over PodService and BindingService: the same transactions, admission
 * defaults and eviction planning as `PUT /v1/namespaces/{ns}/pods/{name}` and the binding route.
 * Label selectors match the pods' metadata.labels.
 */
@Injectable()
export class KubePodsService {
  constructor(
    private readonly pods: PodService,
    private readonly bindings: BindingService,
    private readonly snapshot: SnapshotService,
    private readonly evictions: EvictionApiService,
    private readonly versions: KubeVersions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The pod as core/v1 shows it, with its Kubernetes resourceVersion (watch/kube-versions.ts). */
  show(pod: StoredPod): KubePod {
    const object = toKubePod(pod);
    object.metadata.resourceVersion = this.versions.versionOf(podKey(pod.namespace, pod.name), pod.resourceVersion);
    return object;
  }

  /** A pod taintwise evicted is gone from the Kubernetes API, as the taint manager deletes it (SEMANTICS A.5). */
  async get(namespace: string, name: string): Promise<KubePod> {
    return this.show(await this.present(namespace, name));
  }

  /** The stored pod, unless evicted (NotFound then, in Kubernetes' words). */
  private async present(namespace: string, name: string): Promise<StoredPod> {
    const pod = await this.pods.get(namespace, name);
    if (pod.phase === 'Evicted') throw AppError.notFound('pods', name);
    return pod;
  }

  /** pods/{name}/eviction: the Eviction API (SEMANTICS B.9.3) on a pod the Kubernetes API shows. */
  async evict(namespace: string, name: string, body: unknown, actor: Actor, dryRun: boolean): Promise<void> {
    await this.present(namespace, name);
    await this.evictions.evict(namespace, name, body, actor, { dryRun });
  }

  /**
   * One page (with `limit`) or the whole list. Equalities on spec.nodeName, status.phase and
   * metadata.namespace are pushed to the query; the rest filters each page, which may then hold fewer
   * than `limit` items with a `continue` token, as the API allows.
   */
  async list(namespace: string | undefined, options: ListOptions): Promise<{ items: KubePod[]; continue?: string }> {
    const fields = compileFieldSelector(options.fieldSelector, POD_FIELDS);
    const labels = compileLabelSelector(options.labelSelector);
    const pinnedNamespace = pinnedValue(options.fieldSelector, 'metadata.namespace');
    if (namespace !== undefined && pinnedNamespace !== undefined && pinnedNamespace !== namespace) return { items: [] };
    const filter = {
      namespace: namespace ?? pinnedNamespace,
      nodeName: pinnedValue(options.fieldSelector, 'spec.nodeName') || undefined,
      phase: pinnedPhase(pinnedValue(options.fieldSelector, 'status.phase')),
    };
    const limit = kubeLimit(options.limit);
    const items: KubePod[] = [];
    let token = options.continue;
    for (;;) {
      const page = await this.pods.list(filter, { limit: limit ?? PAGE, continue: token });
      for (const pod of page.items) {
        if (pod.phase === 'Evicted') continue;
        const kube = this.show(pod);
        if (!labels(pod.labels) || !fields(selectablePod(kube))) continue;
        items.push(kube);
      }
      if (limit !== undefined || !page.continue) return { items, continue: page.continue };
      token = page.continue;
    }
  }

  table(items: KubePod[], include: string | undefined, meta: Table['metadata']): Table {
    return podTable(items, this.clock.now(), include, meta);
  }

  async create(namespace: string, object: unknown, actor: Actor, dryRun: boolean): Promise<KubePod> {
    const name = (object as { metadata?: { name?: unknown } } | null)?.metadata?.name;
    if (typeof name !== 'string' || name === '') {
      const cause = {
        field: 'metadata.name',
        type: 'Required value' as const,
        message: 'Required value: name or generateName is required',
      };
      throw new AppError(
        'Invalid',
        'Pod "" is invalid: metadata.name: Required value: name or generateName is required',
        [cause],
        {
          kube: { name: '', kind: 'Pod' },
        },
      );
    }
    const body = podWriteBody(object, namespace, name);
    if (dryRun) {
      const exists = await this.present(namespace, name).then(
        () => true,
        () => false,
      );
      if (exists) throw AppError.alreadyExists('pods', name);
      return this.dryRunPod(namespace, name, body);
    }
    try {
      const options = { createOnly: true, replaceEvicted: true };
      return this.show((await this.pods.upsert(namespace, name, body, actor, options)).pod);
    } catch (e) {
      throw asKubePodError(e, name);
    }
  }

  /**
   * PUT pods/{name}: a replace through the same use case as `PUT /v1/namespaces/{ns}/pods/{name}` (nodeName cannot
   * change: binding and eviction do that). `metadata.resourceVersion`, when sent, is a precondition on the
   * Kubernetes version (409 Conflict when stale).
   */
  async update(namespace: string, name: string, object: unknown, actor: Actor, dryRun: boolean): Promise<KubePod> {
    const current = await this.present(namespace, name);
    const body = podWriteBody(object, namespace, name);
    const sent = (object as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
    if (typeof sent === 'string' && sent !== '') {
      body.resourceVersion = this.versions.restVersionFor(podKey(namespace, name), sent, current.resourceVersion);
    }
    return this.replace(namespace, name, current, body, actor, dryRun);
  }

  /** PATCH pods/{name}: the three patch types applied to the pod as shown, then written as a replace. */
  async patch(
    namespace: string,
    name: string,
    type: PatchType,
    patch: unknown,
    actor: Actor,
    dryRun: boolean,
  ): Promise<KubePod> {
    return guaranteedPatch(
      {
        read: () => this.present(namespace, name),
        show: (pod) => this.show(pod),
        toBody: (patched) => podWriteBody(patched, namespace, name),
        versionFor: (sent, pod) => this.versions.restVersionFor(podKey(namespace, name), sent, pod.resourceVersion),
        write: (pod, body) => this.replace(namespace, name, pod, body, actor, dryRun),
      },
      type,
      patch,
    );
  }

  /** dryRun answers the pod as it would be (the body is still checked as a write would check it). */
  private async replace(
    namespace: string,
    name: string,
    current: StoredPod,
    body: Record<string, unknown>,
    actor: Actor,
    dryRun: boolean,
  ): Promise<KubePod> {
    if (body.nodeName !== undefined && body.nodeName !== current.nodeName) {
      const cause = {
        field: 'spec',
        type: 'Forbidden' as const,
        message: 'Forbidden: pod updates may not change spec.nodeName (use the binding subresource)',
      };
      throw new AppError('Invalid', formatInvalidObject('Pod', name, [cause]), [cause], {
        kube: { name, kind: 'Pod' },
      });
    }
    try {
      if (dryRun) {
        parseBody(podBodySchema, body, `Pod "${name}"`);
        const { resourceVersion: _v, ...fields } = body;
        return this.show({ ...current, ...(fields as Partial<StoredPod>) });
      }
      return this.show((await this.pods.upsert(namespace, name, body, actor)).pod);
    } catch (e) {
      throw asKubePodError(e, name);
    }
  }

  async delete(namespace: string, name: string, actor: Actor, dryRun: boolean): Promise<KubePod> {
    const pod = await this.present(namespace, name);
    if (!dryRun) await this.pods.delete(namespace, name, actor);
    return this.show(pod);
  }

  /** pods/{name}/binding (core/v1 Binding): the binding use case, feasibility checked as on REST. */
  async bind(namespace: string, name: string, object: unknown, actor: Actor & { role?: Role }): Promise<void> {
    const target = (object as { target?: { kind?: unknown; name?: unknown } } | null)?.target;
    if (!target || typeof target.name !== 'string' || target.name === '') {
      throw new AppError(
        'Invalid',
        `Binding "${name}" is invalid: target.name: Required value`,
        [{ field: 'target.name', type: 'Required value', message: 'Required value' }],
        { kube: { name, kind: 'Binding' } },
      );
    }
    if (target.kind !== undefined && target.kind !== 'Node' && target.kind !== '') {
      throw new AppError(
        'Invalid',
        `Binding "${name}" is invalid: target.kind: Unsupported value: ${JSON.stringify(target.kind)}`,
      );
    }
    await this.bindings.bind(namespace, name, { nodeName: target.name }, actor);
  }

  /** The namespaces that hold a pod, and `default` (always present in a cluster). */
  namespaces(): string[] {
    return [...new Set(['default', ...this.snapshot.snapshot.namespaces()])].sort();
  }

  private dryRunPod(namespace: string, name: string, body: Record<string, unknown>): KubePod {
    const now = this.clock.now();
    const pod: StoredPod = {
      namespace,
      name,
      uid: '',
      labels: (body.labels as Record<string, string>) ?? {},
      nodeName: (body.nodeName as string) ?? null,
      phase: body.nodeName ? 'Running' : 'Pending',
      boundAt: body.nodeName ? now : null,
      tolerations: (body.tolerations as StoredPod['tolerations']) ?? [],
      nodeSelector: (body.nodeSelector as Record<string, string>) ?? {},
      affinity: (body.affinity as StoredPod['affinity']) ?? null,
      priority: (body.priority as number) ?? 0,
      owner: (body.owner as StoredPod['owner']) ?? null,
      resources: (body.resources as StoredPod['resources']) ?? {},
      requests: {},
      hostNetwork: body.hostNetwork === true,
      resourceVersion: '0',
      createdAt: now,
      updatedAt: now,
    };
    return toKubePod(pod);
  }
}

/** The fields a pod list or watch selects on (pkg/registry/core/pod/strategy.go PodToSelectableFields, kubectl's). */
export function selectablePod(pod: KubePod): Record<string, string> {
  return {
    'metadata.name': pod.metadata.name,
    'metadata.namespace': pod.metadata.namespace,
    'spec.nodeName': pod.spec.nodeName ?? '',
    'status.phase': pod.status.phase,
  };
}

/** `status.phase=Failed` includes taintwise's Evicted pods, which the API shows as Failed. */
function pinnedPhase(phase: string | undefined): string | undefined {
  return phase === undefined || phase === 'Failed' ? undefined : phase;
}
