import { Inject, Injectable } from '@nestjs/common';
import { taintToJson } from '../kernel/model/taint-json';
import { AppError } from '../kernel/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import type { NodeCondition, TaintEffect } from '../domain/types';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { validateNodeObject } from '../domain/validation/validate-objects';
import { EvictionPlanner } from '../evictions/eviction-planner.service';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import type { Actor, ChangeSet } from '../kernel/persistence/change-set';
import { nodeBodySchema, type NodeBody } from '../kernel/http/input/body-schemas';
import { parseBody } from '../kernel/http/input/parse-body';
import { compileLabelSelector } from '../kernel/http/label-selection';
import type { StoredNode } from '../kernel/model/stored-objects';
import { NodeRepository, type NodeWrite } from '../kernel/persistence/repositories/node.repository';
import { decodeContinue, encodeContinue, parseLimit, type Page } from '../kernel/http/paging';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import type { Db } from '../kernel/persistence/prisma-types';
import { stampTaints } from './taint-stamping';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';

/** Nodes: create/replace/delete in one transaction each, with the evictions they imply. */
@Injectable()
export class NodeService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly planner: EvictionPlanner,
    private readonly snapshot: SnapshotService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(name: string): Promise<StoredNode> {
    const node = await this.nodes.findByName(this.uow.db, name);
    if (!node) throw AppError.notFound('nodes', name);
    return node;
  }

  /** From the snapshot: label selection and paging over 5,000 nodes without a query per node. */
  list(
    query: { labelSelector?: string; limit?: unknown; continue?: unknown },
    /** A further filter (the Kubernetes API's field selectors), applied before paging. */
    alsoMatches: (node: StoredNode) => boolean = () => true,
  ): Page<StoredNode> {
    const limit = parseLimit(query.limit);
    const after = decodeContinue(query.continue, 1)?.[0];
    const matches = compileLabelSelector(query.labelSelector);
    const items: StoredNode[] = [];
    for (const s of this.snapshot.snapshot.schedulingNodes()) {
      if (after !== undefined && s.name <= after) continue;
      if (!matches(s.labels)) continue;
      const node = this.snapshot.snapshot.node(s.name)!;
      if (!alsoMatches(node)) continue;
      if (items.length === limit) return { items, continue: encodeContinue([items[items.length - 1].name]) };
      items.push(node);
    }
    return { items };
  }

  /** PUT /v1/nodes/{name}: 201 on create, 200 on replace; resourceVersion makes it conditional. */
  async upsert(
    name: string,
    body: unknown,
    actor: Actor,
    options: { createOnly?: boolean } = {},
  ): Promise<{ node: StoredNode; created: boolean }> {
    const parsed = parseBody(nodeBodySchema, body, `Node "${name}"`);
    if (parsed.name !== undefined && parsed.name !== name) {
      throw new AppError(
        'BadRequest',
        `the name in the body ("${parsed.name}") does not match the name in the path ("${name}")`,
        [
          {
            field: 'name',
            type: 'Invalid value',
            message: `Invalid value: "${parsed.name}": must match the name in the path`,
          },
        ],
      );
    }
    const write = this.toWrite(name, parsed);
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      await this.nodes.lock(tx, [name]);
      const existing = await this.nodes.findByName(tx, name);
      const now = this.uow.now();
      // POST of the Kubernetes API: create, never replace (checked under the row lock).
      if (options.createOnly && existing) throw AppError.alreadyExists('nodes', name);
      if (parsed.resourceVersion !== undefined && (!existing || existing.resourceVersion !== parsed.resourceVersion)) {
        throw new AppError(
          'Conflict',
          existing
            ? `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version (resourceVersion ${existing.resourceVersion}) and try again`
            : `node "${name}" does not exist, so resourceVersion ${parsed.resourceVersion} cannot match`,
        );
      }
      const stamped = { ...write, taints: stampTaints(write.taints, existing?.taints ?? [], now, false) };
      const node = existing
        ? await this.nodes.replace(tx, stamped, parsed.resourceVersion)
        : await this.nodes.create(tx, stamped);
      if (!node)
        throw new AppError(
          'Conflict',
          `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      await this.afterNodeChange(tx, node, now, changes);
      changes.event({
        type: existing ? 'NodeReplaced' : 'NodeCreated',
        subjectKind: 'Node',
        subjectName: name,
        data: {
          taints: node.taints.map(taintToJson),
          unschedulable: node.unschedulable,
          previousTaints: existing?.taints.map(taintToJson) ?? [],
        },
      });
      return { node, created: !existing };
    });
    return result;
  }

  /** DELETE /v1/nodes/{name}: its bound pods are unbound (Pending again) and their evictions cancelled. */
  async delete(name: string, actor: Actor): Promise<void> {
    await this.uow.run(actor, async (tx, changes) => {
      await this.nodes.lock(tx, [name]);
      await this.uow.refuseClusterOwned(tx, changes, { nodes: [name] });
      const bound = await this.pods.findActiveOnNodes(tx, [name]);
      const now = this.uow.now();
      await this.planner.cancelForPods(tx, bound, `node ${name} was deleted`, now, changes);
      for (const pod of bound) {
        const unbound = await this.pods.setBinding(tx, pod.namespace, pod.name, name, {
          nodeName: null,
          phase: 'Pending',
          boundAt: null,
        });
        if (unbound) changes.pod(unbound);
      }
      if (!(await this.nodes.delete(tx, name))) throw AppError.notFound('nodes', name);
      changes.nodeDeleted(name);
      changes.event({
        type: 'NodeDeleted',
        subjectKind: 'Node',
        subjectName: name,
        data: { unboundPods: bound.map((p) => `${p.namespace}/${p.name}`) },
      });
    });
  }

  /**
   * After a node's taints may have changed: record it for the snapshot and re-decide the evictions
   * of its bound pods (SEMANTICS A.3) in the same transaction.
   */
  async afterNodeChange(tx: Db, node: StoredNode, now: Date, changes: ChangeSet): Promise<void> {
    changes.node(node);
    const bound = await this.pods.findActiveOnNodes(tx, [node.name]);
    await this.planner.replan(tx, bound, new Map([[node.name, node]]), now, changes);
  }

  private toWrite(name: string, body: NodeBody): NodeWrite {
    const write: NodeWrite = {
      name,
      labels: body.labels ?? {},
      taints: (body.taints ?? []).map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect as TaintEffect })),
      unschedulable: body.unschedulable ?? false,
      conditions: (body.conditions ?? []).map((c): NodeCondition => ({
        ...c,
        lastTransitionTime: c.lastTransitionTime ? new Date(c.lastTransitionTime) : undefined,
      })),
      allocatable: body.allocatable ?? null,
    };
    const errors = validateNodeObject(write);
    if (errors.length) throw AppError.invalid('Node', name, errors, formatInvalidObject('Node', name, errors));
    return write;
  }
}
