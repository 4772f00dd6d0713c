import { Inject, Injectable } from '@nestjs/common';
import { roleAtLeast, type Role } from '../kernel/auth/roles';
import { AppError } from '../kernel/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { toResourceVector } from '../domain/resources/quantity';
import { compilePod } from '../domain/scheduling/compile-pod';
import { decideFeasibleNodes } from '../domain/scheduling/feasible-nodes';
import type { SchedulingNode } from '../domain/types';
import { EvictionPlanner } from '../evictions/eviction-planner.service';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import type { Actor } from '../kernel/persistence/change-set';
import { bindingBodySchema } from './input/binding-body';
import { parseBody } from '../kernel/http/input/parse-body';
import { isActivePhase, podKey, type StoredNode, type StoredPod } from '../kernel/model/stored-objects';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';

/**
 * `POST /v1/namespaces/{ns}/pods/{name}/binding` (API.md): binds a pending pod to a node.
 * Without `force`, the scheduler's filters decide first (decideFeasibleNodes over that one node, read
 * from the snapshot) and an infeasible node is a 409 carrying the structured reasons and the
 * FitError message. With `force`, the checks are skipped as `spec.nodeName` skips them in
 * Kubernetes — but a NoExecute taint the pod does not tolerate still evicts it at once (SEMANTICS
 * B.4.4: the taint manager does not care how the pod got there).
 */
@Injectable()
export class BindingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly pods: PodRepository,
    private readonly nodes: NodeRepository,
    private readonly planner: EvictionPlanner,
    private readonly snapshot: SnapshotService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async bind(namespace: string, name: string, body: unknown, actor: Actor & { role?: Role }): Promise<StoredPod> {
    const { nodeName, force = false } = parseBody(bindingBodySchema, body, `Binding of pod "${namespace}/${name}"`);
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      await this.nodes.lock(tx, [nodeName]);
      const pod = await this.pods.findByKey(tx, namespace, name);
      if (!pod) throw AppError.notFound('pods', name);
      if (pod.nodeName !== null) {
        throw new AppError(
          'Conflict',
          `pod ${namespace}/${name} is already bound to node ${pod.nodeName}; evict or delete it first`,
        );
      }
      if (!isActivePhase(pod.phase)) {
        throw new AppError('Conflict', `pod ${namespace}/${name} is ${pod.phase}: only a Pending pod can be bound`);
      }
      const node = await this.nodes.findByName(tx, nodeName);
      if (!node) throw AppError.notFound('nodes', nodeName);
      if (!force) this.checkFeasible(pod, node, actor.role);

      const now = this.uow.now();
      const bound = await this.pods.setBinding(tx, namespace, name, null, { nodeName, phase: 'Running', boundAt: now });
      if (!bound)
        throw new AppError(
          'Conflict',
          `Operation cannot be fulfilled on pods "${name}": the pod was bound concurrently; please retry`,
        );
      changes.pod(bound);
      await this.planner.replan(tx, [bound], new Map([[node.name, node]]), now, changes);
      changes.event({
        type: 'PodBound',
        subjectKind: 'Pod',
        subjectName: podKey(namespace, name),
        data: { nodeName, forced: force, evicted: changes.evictions.immediate > 0 },
      });
      // A forced binding onto an untolerated NoExecute taint is evicted in the same transaction.
      return changes.upsertedPods.get(podKey(namespace, name)) ?? bound;
    });
    return result;
  }

  private checkFeasible(pod: StoredPod, node: StoredNode, role: Role | undefined): void {
    const compiled = compilePod(
      {
        spec: {
          tolerations: pod.tolerations,
          nodeSelector: pod.nodeSelector,
          affinity: pod.affinity,
          resources: pod.resources,
          priority: pod.priority,
          owner: pod.owner,
          hostNetwork: pod.hostNetwork,
        },
        requests: pod.requests,
      },
      { comparisonOperators: this.config.COMPARISON_OPERATORS },
    );
    const redactTaints =
      this.config.REDACT_TAINTS || (role !== undefined && !roleAtLeast(role, this.config.REDACT_TAINTS_BELOW_ROLE));
    const decision = decideFeasibleNodes(compiled, [this.schedulingNode(node)], { redactTaints });
    const verdict = decision.nodes[0];
    if (verdict && !verdict.feasible) {
      throw new AppError(
        'Conflict',
        `pod ${pod.namespace}/${pod.name} cannot be bound to node ${node.name}: ${decision.message}`,
        [],
        {
          node: node.name,
          message: decision.message,
          reasons: verdict.reasons,
        },
      );
    }
  }

  /**
   * The node as the scheduler sees it: the snapshot's view (resources already requested by its bound
   * pods) when it holds this version of the node; otherwise built from the locked row, so a snapshot
   * a notification behind never decides on stale taints.
   */
  private schedulingNode(node: StoredNode): SchedulingNode {
    const snap = this.snapshot.snapshot;
    const cached = snap.schedulingNode(node.name);
    if (cached && snap.nodeResourceVersion(node.name) === node.resourceVersion) return cached;
    const requested: Record<string, number> = { pods: 0 };
    for (const p of snap.podsOn(node.name)) {
      for (const [k, v] of Object.entries(p.requests)) if (k !== 'pods') requested[k] = (requested[k] ?? 0) + v;
      requested.pods += 1;
    }
    return {
      name: node.name,
      labels: node.labels,
      taints: node.taints.map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect })),
      unschedulable: node.unschedulable,
      allocatable: node.allocatable ? toResourceVector(node.allocatable).vector : null,
      requested,
    };
  }
}
