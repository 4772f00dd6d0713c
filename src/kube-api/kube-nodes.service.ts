import { Inject, Injectable } from '@nestjs/common';
import { cordonTaints, uncordonTaints } from '../domain/node-lifecycle/cordon';
import { validateNodeObject } from '../domain/validation/validate-objects';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { NodeService } from '../inventory/node.service';
import { TaintMutationService } from '../taints/taint-mutation.service';
import { AppError } from '../kernel/errors/app-error';
import type { Actor } from '../kernel/persistence/change-set';
import type { StoredNode } from '../kernel/model/stored-objects';
import { CLOCK } from '../kernel/tokens';
import type { Clock } from '../kernel/timers/clock';
import type { TaintEffect } from '../domain/types';
import { nodeBodySchema, type NodeBody } from '../kernel/http/input/body-schemas';
import { parseBody } from '../kernel/http/input/parse-body';
import { applyPatch, type PatchType } from './apply-patch';
import { guaranteedPatch } from './guaranteed-patch';
import { compileFieldSelector } from './field-selector';
import { kubeLimit } from './list-limit';
import { MAX_LIMIT } from '../kernel/http/paging';
import { asKubeNodeError, nodeWriteBody } from './node-body';
import { toKubeNode, type KubeNode } from './node-object';
import { KubeVersions, nodeKey } from './watch/kube-versions';
import { nodeTable, type Table } from './table';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: string;
  continue?: string;
}

/** core/v1 NodeToSelectableFields (pkg/registry/core/node/strategy.go) plus the generic metadata.name. */
const NODE_FIELDS = ['metadata.name', 'spec.unschedulable'];

/**
 * The Kubernetes API's nodes over taintwise's services: every write is NodeService's (or
 * TaintMutationService's for conditions) transaction, so a taint added by `kubectl taint` plans
 * evictions through the same EvictionPlanner as `POST /v1/taints`. `dryRun` computes and validates the
 * object and writes nothing.
 */
@Injectable()
export class KubeNodesService {
  constructor(
    private readonly nodes: NodeService,
    private readonly taints: TaintMutationService,
    private readonly versions: KubeVersions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The node as core/v1 shows it, with its Kubernetes resourceVersion (watch/kube-versions.ts). */
  show(node: StoredNode): KubeNode {
    const object = toKubeNode(node);
    object.metadata.resourceVersion = this.versions.versionOf(nodeKey(node.name), node.resourceVersion);
    return object;
  }

  async get(name: string): Promise<KubeNode> {
    return this.show(await this.nodes.get(name));
  }

  list(options: ListOptions): { items: KubeNode[]; continue?: string } {
    const matches = compileFieldSelector(options.fieldSelector, NODE_FIELDS);
    const limit = kubeLimit(options.limit);
    const items: KubeNode[] = [];
    let token = options.continue;
    for (;;) {
      const page = this.nodes.list(
        { labelSelector: options.labelSelector, limit: limit ?? MAX_LIMIT, continue: token },
        (n) => matches({ 'metadata.name': n.name, 'spec.unschedulable': String(n.unschedulable) }),
      );
      items.push(...page.items.map((n) => this.show(n)));
      // Without a limit the API server answers the whole list; with one it may answer fewer and a token.
      if (limit !== undefined || !page.continue) return { items, continue: page.continue };
      token = page.continue;
    }
  }

  table(items: KubeNode[], include: string | undefined, meta: Table['metadata']): Table {
    return nodeTable(items, this.clock.now(), include, meta);
  }

  async create(object: unknown, actor: Actor, dryRun: boolean): Promise<KubeNode> {
    const name = (object as { metadata?: { name?: unknown } } | null)?.metadata?.name;
    if (typeof name !== 'string' || name === '') {
      throw new AppError(
        'Invalid',
        'Node "" is invalid: metadata.name: Required value: name or generateName is required',
        [
          {
            field: 'metadata.name',
            type: 'Required value',
            message: 'Required value: name or generateName is required',
          },
        ],
        { kube: { name: '', kind: 'Node' } },
      );
    }
    const body = nodeWriteBody(object, name);
    delete body.resourceVersion; // a create has no precondition (the API server clears it)
    if (dryRun) {
      try {
        await this.nodes.get(name);
      } catch {
        return this.dryRunResult(name, body, null);
      }
      throw AppError.alreadyExists('nodes', name);
    }
    try {
      return this.show((await this.nodes.upsert(name, body, actor, { createOnly: true })).node);
    } catch (e) {
      throw asKubeNodeError(e, name);
    }
  }

  async update(name: string, object: unknown, actor: Actor, dryRun: boolean): Promise<KubeNode> {
    const current = await this.nodes.get(name);
    const body = nodeWriteBody(object, name);
    // metadata.resourceVersion is a Kubernetes version: the write is conditional on the node's current one.
    if (body.resourceVersion !== undefined)
      body.resourceVersion = this.versions.restVersionFor(
        nodeKey(name),
        String(body.resourceVersion),
        current.resourceVersion,
      );
    return this.write(name, current, body, actor, dryRun);
  }

  async patch(name: string, type: PatchType, patch: unknown, actor: Actor, dryRun: boolean): Promise<KubeNode> {
    return guaranteedPatch(
      {
        read: () => this.nodes.get(name),
        show: (node) => this.show(node),
        toBody: (patched) => nodeWriteBody(patched, name),
        versionFor: (sent, node) => this.versions.restVersionFor(nodeKey(name), sent, node.resourceVersion),
        write: (node, body) => this.write(name, node, body, actor, dryRun),
      },
      type,
      patch,
    );
  }

  /** PUT/PATCH nodes/{name}/status: the reported conditions, through the conditions use case (lifecycle taints). */
  async patchStatus(name: string, type: PatchType | 'replace', patch: unknown, actor: Actor): Promise<KubeNode> {
    const original = this.show(await this.nodes.get(name));
    const next = (type === 'replace' ? patch : applyPatch(type, original as never, patch)) as KubeNode;
    const given: unknown = next?.status?.conditions ?? [];
    // a body of the wrong shape is a 400 in the API server's words, never a TypeError (found by the fuzzer)
    if (!Array.isArray(given) || given.some((c) => c === null || typeof c !== 'object' || Array.isArray(c))) {
      throw new AppError('BadRequest', 'status.conditions: expected an array of NodeCondition objects');
    }
    const conditions = (given as KubeNode['status']['conditions'] & object).map((c) => ({
      type: c.type,
      status: c.status,
      ...(c.reason !== undefined ? { reason: c.reason } : {}),
      ...(c.message !== undefined ? { message: c.message } : {}),
    }));
    try {
      return this.show((await this.taints.setConditions(name, conditions, actor)).node);
    } catch (e) {
      throw asKubeNodeError(e, name);
    }
  }

  async delete(name: string, actor: Actor, dryRun: boolean): Promise<KubeNode> {
    const node = await this.nodes.get(name);
    if (!dryRun) await this.nodes.delete(name, actor);
    return this.show(node);
  }

  /**
   * One node write. `spec.unschedulable` flipping brings the lifecycle controller's
   * `node.kubernetes.io/unschedulable:NoSchedule` taint with it (A.7), as `POST /v1/nodes/{name}/cordon` does.
   */
  private async write(
    name: string,
    current: StoredNode,
    body: Record<string, unknown>,
    actor: Actor,
    dryRun: boolean,
  ): Promise<KubeNode> {
    const unschedulable = body.unschedulable === true;
    if (unschedulable !== current.unschedulable && Array.isArray(body.taints ?? [])) {
      const taints = (body.taints ?? []) as Array<{ key: string; value?: string; effect: TaintEffect }>;
      const next = unschedulable ? cordonTaints(taints, this.clock.now()) : uncordonTaints(taints);
      body.taints = next.map(({ key, value, effect }) => ({ key, ...(value ? { value } : {}), effect }));
    }
    if (dryRun) return this.dryRunResult(name, body, current);
    try {
      return this.show((await this.nodes.upsert(name, body, actor)).node);
    } catch (e) {
      throw asKubeNodeError(e, name);
    }
  }

  /** The object a write would store, validated as the write would be, with nothing written. */
  private dryRunResult(name: string, raw: Record<string, unknown>, current: StoredNode | null): KubeNode {
    let body: NodeBody;
    try {
      body = parseBody(nodeBodySchema, raw, `Node "${name}"`);
    } catch (e) {
      throw asKubeNodeError(e, name);
    }
    const now = this.clock.now();
    const before = new Map((current?.taints ?? []).map((t) => [`${t.key}:${t.effect}`, t.timeAdded]));
    const node: StoredNode = {
      name,
      labels: body.labels ?? {},
      taints: (body.taints ?? []).map((t) => ({
        key: t.key,
        value: t.value ?? '',
        effect: t.effect as TaintEffect,
        timeAdded: before.get(`${t.key}:${t.effect}`) ?? now,
      })),
      unschedulable: body.unschedulable === true,
      conditions: current?.conditions ?? [],
      allocatable: body.allocatable ?? current?.allocatable ?? null,
      resourceVersion: current?.resourceVersion ?? '0',
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
    const errors = validateNodeObject(node);
    if (errors.length) {
      throw asKubeNodeError(AppError.invalid('Node', name, errors, formatInvalidObject('Node', name, errors)), name);
    }
    return this.show(node);
  }
}
