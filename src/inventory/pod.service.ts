import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../kernel/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { applyAdmissionDefaults } from '../domain/admission/apply-admission-defaults';
import type { PodSpec } from '../domain/types';
import { formatInvalidObject } from '../domain/validation/field-errors';
import {
  validateLabels,
  validateNamespaceName,
  validateObjectName,
  validatePodSpecObject,
} from '../domain/validation/validate-objects';
import { usesComparisonOperators, validateTolerationsUpdate } from '../domain/validation/validate-tolerations';
import { EvictionPlanner } from '../evictions/eviction-planner.service';
import type { Actor } from '../kernel/persistence/change-set';
import { podBodySchema, type PodBody } from '../kernel/http/input/body-schemas';
import { parseBody } from '../kernel/http/input/parse-body';
import { isActivePhase, type StoredPod } from '../kernel/model/stored-objects';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import { decodeContinue, parseLimit, readPage, type Page } from '../kernel/http/paging';
import { PodRepository, type PodListFilter, type PodWrite } from '../kernel/persistence/repositories/pod.repository';
import { requestsVector } from '../kernel/model/pod-requests-vector';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';

/** Pods: create/replace with admission defaults (SEMANTICS A.6), delete, list. */
@Injectable()
export class PodService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly pods: PodRepository,
    private readonly nodes: NodeRepository,
    private readonly planner: EvictionPlanner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(namespace: string, name: string): Promise<StoredPod> {
    const pod = await this.pods.findByKey(this.uow.db, namespace, name);
    if (!pod) throw AppError.notFound('pods', name);
    return pod;
  }

  async list(filter: PodListFilter, query: { limit?: unknown; continue?: unknown }): Promise<Page<StoredPod>> {
    const limit = parseLimit(query.limit);
    const after = decodeContinue(query.continue, 2);
    const position = after ? { namespace: after[0], name: after[1] } : undefined;
    return readPage(
      limit,
      (take) => this.pods.list(this.uow.db, filter, take, position),
      (p) => [p.namespace, p.name],
    );
  }

  /** PUT /v1/namespaces/{ns}/pods/{name}: 201 on create, 200 on replace (API.md). */
  async upsert(
    namespace: string,
    name: string,
    body: unknown,
    actor: Actor,
    /** `replaceEvicted`: an evicted pod of that name is gone (the Kubernetes API's view): create anew. */
    options: { createOnly?: boolean; replaceEvicted?: boolean } = {},
  ): Promise<{ pod: StoredPod; created: boolean }> {
    const parsed = parseBody(podBodySchema, body, `Pod "${name}"`);
    for (const [field, given, expected] of [
      ['namespace', parsed.namespace, namespace],
      ['name', parsed.name, name],
    ] as const) {
      if (given !== undefined && given !== expected) {
        throw new AppError(
          'BadRequest',
          `the ${field} in the body ("${given}") does not match the path ("${expected}")`,
          [{ field, type: 'Invalid value', message: `Invalid value: "${given}": must match the path` }],
        );
      }
    }
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      let existing = await this.pods.findByKey(tx, namespace, name);
      const now = this.uow.now();
      if (existing?.phase === 'Evicted' && options.replaceEvicted) {
        await this.uow.refuseClusterOwned(tx, changes, { pods: [{ namespace, name }] });
        await this.pods.delete(tx, namespace, name);
        changes.podDeleted(namespace, name);
        existing = undefined;
      }
      // POST of the Kubernetes API: create, never replace.
      if (options.createOnly && existing) throw AppError.alreadyExists('pods', name);
      if (parsed.resourceVersion !== undefined && existing?.resourceVersion !== parsed.resourceVersion) {
        throw new AppError(
          'Conflict',
          `Operation cannot be fulfilled on pods "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      if (existing && parsed.nodeName !== undefined && parsed.nodeName !== existing.nodeName) {
        throw new AppError(
          'Conflict',
          `pod ${namespace}/${name}: nodeName cannot change on replace (it is ${existing.nodeName === null ? 'unbound' : `bound to ${existing.nodeName}`}); use the binding subresource or an eviction`,
        );
      }
      const write = this.toWrite(namespace, name, parsed, existing, now);
      if (write.nodeName !== null) {
        await this.nodes.lock(tx, [write.nodeName]);
        if (!existing && !(await this.nodes.findByName(tx, write.nodeName))) {
          throw new AppError(
            'NotFound',
            `node "${write.nodeName}" not found: a pod can only be created bound to an existing node`,
          );
        }
      }
      const pod = existing
        ? await this.pods.replace(tx, write, parsed.resourceVersion)
        : await this.pods.create(tx, write);
      if (!pod)
        throw new AppError(
          'Conflict',
          `Operation cannot be fulfilled on pods "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      changes.pod(pod);
      if (pod.nodeName !== null && isActivePhase(pod.phase)) {
        const node = await this.nodes.findByName(tx, pod.nodeName);
        await this.planner.replan(tx, [pod], new Map(node ? [[node.name, node]] : []), now, changes);
      } else if (existing?.nodeName && !isActivePhase(pod.phase)) {
        await this.planner.cancelForPods(tx, [pod], `pod phase is ${pod.phase}`, now, changes);
      }
      changes.event({
        type: existing ? 'PodReplaced' : 'PodCreated',
        subjectKind: 'Pod',
        subjectName: `${namespace}/${name}`,
        data: { nodeName: pod.nodeName, tolerations: pod.tolerations },
      });
      return { pod, created: !existing };
    });
    return result;
  }

  async delete(namespace: string, name: string, actor: Actor): Promise<void> {
    await this.uow.run(actor, async (tx, changes) => {
      const pod = await this.pods.findByKey(tx, namespace, name);
      if (!pod) throw AppError.notFound('pods', name);
      if (pod.nodeName) await this.nodes.lock(tx, [pod.nodeName]);
      await this.planner.cancelForPods(tx, [pod], 'pod deleted', this.uow.now(), changes);
      await this.uow.refuseClusterOwned(tx, changes, { pods: [{ namespace, name }] });
      await this.pods.delete(tx, namespace, name);
      changes.podDeleted(namespace, name);
      changes.event({
        type: 'PodDeleted',
        subjectKind: 'Pod',
        subjectName: `${namespace}/${name}`,
        data: { nodeName: pod.nodeName },
      });
    });
  }

  /** The admitted spec: admission defaults applied as the API server would on create and update (A.6). */
  admit(spec: PodSpec): PodSpec {
    return applyAdmissionDefaults(spec, {
      defaultTolerationSeconds: this.config.ADMISSION_DEFAULT_TOLERATION_SECONDS,
      notReadySeconds: this.config.DEFAULT_NOT_READY_TOLERATION_SECONDS,
      unreachableSeconds: this.config.DEFAULT_UNREACHABLE_TOLERATION_SECONDS,
      daemonSetTolerations: this.config.ADMISSION_DAEMONSET_TOLERATIONS,
      memoryPressureToleration: this.config.ADMISSION_MEMORY_PRESSURE_TOLERATION,
      extendedResourceToleration: this.config.ADMISSION_EXTENDED_RESOURCE_TOLERATION,
    });
  }

  private toWrite(
    namespace: string,
    name: string,
    body: PodBody,
    existing: StoredPod | undefined,
    now: Date,
  ): PodWrite {
    const spec: PodSpec = {
      tolerations: body.tolerations ?? [],
      nodeSelector: body.nodeSelector ?? {},
      affinity: body.affinity ?? null,
      resources: body.resources ?? {},
      priority: body.priority ?? 0,
      owner: body.owner ?? null,
      hostNetwork: body.hostNetwork ?? false,
    };
    const ratchet = existing !== undefined && usesComparisonOperators(existing.tolerations);
    const options = { comparisonOperators: this.config.COMPARISON_OPERATORS || ratchet };
    const errors = [
      ...validateNamespaceName(namespace),
      ...validateObjectName(name),
      ...validateLabels(body.labels ?? {}, 'labels'),
      ...validatePodSpecObject(
        {
          tolerations: spec.tolerations,
          nodeSelector: spec.nodeSelector ?? {},
          affinity: spec.affinity ?? null,
          resources: spec.resources ?? {},
          phase: body.phase,
        },
        options,
      ),
    ];
    const admitted = errors.length ? spec : this.admit(spec);
    if (existing && errors.length === 0)
      errors.push(...validateTolerationsUpdate(existing.tolerations, admitted.tolerations, 'tolerations', options));
    if (errors.length) throw AppError.invalid('Pod', name, errors, formatInvalidObject('Pod', name, errors));
    const nodeName = existing ? existing.nodeName : (body.nodeName ?? null);
    return {
      namespace,
      name,
      uid: existing?.uid ?? body.uid ?? randomUUID(),
      labels: body.labels ?? {},
      nodeName,
      phase: body.phase ?? existing?.phase ?? (nodeName ? 'Running' : 'Pending'),
      boundAt: existing ? existing.boundAt : nodeName ? (body.boundAt ? new Date(body.boundAt) : now) : null,
      tolerations: admitted.tolerations,
      nodeSelector: admitted.nodeSelector ?? {},
      affinity: admitted.affinity ?? null,
      priority: admitted.priority ?? 0,
      owner: admitted.owner ?? null,
      resources: admitted.resources ?? {},
      requests: requestsVector(admitted.resources ?? {}),
      hostNetwork: admitted.hostNetwork ?? false,
    };
  }
}
