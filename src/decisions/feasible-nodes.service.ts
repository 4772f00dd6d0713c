import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../kernel/errors/app-error';
import { roleAtLeast, type Principal } from '../kernel/auth/roles';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { compilePod, type CompiledPod, type PodToPlace } from '../domain/scheduling/compile-pod';
import {
  decideFeasibleNodes,
  FeasibleNodesScratch,
  type FeasibleNodesDecision,
} from '../domain/scheduling/feasible-nodes';
import { nodeIndex, withNodeResources, type NodeTable } from '../domain/scheduling/node-table';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { PodSpec, ResourceVector, Toleration } from '../domain/types';
import { validatePodSpecObject } from '../domain/validation/validate-objects';
import { parseBody } from '../kernel/http/input/parse-body';
import type { PodSpecBody } from '../kernel/http/input/body-schemas';
import { compileLabelSelector } from '../kernel/http/label-selection';
import { PodService } from '../inventory/pod.service';
import { requestsVector } from '../kernel/model/pod-requests-vector';
import { Metrics } from '../kernel/observability/metrics';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import type { FeasibleNodesAnswer, PodRef } from './decision-answers';
import {
  DEFAULT_FEASIBLE_LIMIT,
  feasibleNodesBodySchema,
  readFeasibleNodesBody,
  type FeasibleNodesBody,
} from './decision-bodies';
import { FALLBACK } from '../kernel/http/input/fast-body';
import { LRUCache } from 'lru-cache';
import { exactlyOne, invalidRequest, matchOptionsOf, uniqueSorted } from './decision-requests';
import { canonicalHash, canonicalJson } from './decision-cache';
import { SecondSighting } from '../kernel/cache/second-sighting';
import { fnv1a } from '../kernel/cache/fnv1a';

/** A feasible-nodes answer as computed, and its JSON text once REST has needed it. */
interface CachedDecision {
  answer: FeasibleNodesAnswer;
  json?: string;
}

/** A feasible-nodes body, parsed and checked; for an inline pod, also validated, admitted and compiled. */
interface FeasibleNodesQuestion {
  input: FeasibleNodesBody;
  inline?: { compiled: CompiledPod; key: PodKey };
}

/**
 * The pod's part of a decision's cache key: its scheduling inputs (and the node it is bound to), hashed; the
 * canonical text is built only for a question asked before (most distinct pods are asked once).
 */
interface PodKey {
  inputs: unknown;
  hash: number;
  text?: string;
}

function podKey(pod: PodToPlace, boundTo: string | undefined): PodKey {
  const inputs = [schedulingInputs(pod), boundTo ?? null];
  return { inputs, hash: canonicalHash(inputs) };
}

/** Decision-cache sizes: entries, and answer nodes over all entries (~150 bytes each as JSON). */
const DECISION_CACHE_ENTRIES = 256;
const DECISION_CACHE_NODES = 200_000;
/** Bodies longer than this (as JSON) are not remembered. */
const MAX_REMEMBERED_BODY = 16_384;

/**
 * POST /v1/decisions/feasible-nodes: the filter and score plugins for one pod over the candidate nodes,
 * answered from the in-memory snapshot; nothing is written.
 *
 * Answers are cached: the key is the canonical JSON of everything the answer depends
 * on (the pod's tolerations, nodeSelector, affinity and requests after admission, the node a stored
 * pod is bound to, the candidate selection, the limit, redaction) plus the snapshot's `changeCount`,
 * so any change to the inventory makes every older entry unreachable (they age out of the LRU).
 * Identical questions between two changes are answered from the cache from their third asking on
 * (an answer is remembered when its question is seen the second time: second-sighting.ts), REST with
 * the JSON text serialised once. Valid bodies are remembered too (parsed, validated, admitted,
 * compiled), so a repeated body skips that work; only successes are remembered: errors are
 * recomputed every time.
 */
@Injectable()
export class FeasibleNodesService {
  // weighed by answer size, so a few 5,000-node answers cannot hold hundreds of megabytes
  private readonly decisionCache = new LRUCache<string, CachedDecision>({
    max: DECISION_CACHE_ENTRIES,
    maxSize: DECISION_CACHE_NODES,
    sizeCalculation: (d) => d.answer.nodes.length + 1,
  });
  private readonly questions = new LRUCache<string, FeasibleNodesQuestion>({ max: DECISION_CACHE_ENTRIES });
  /** Only questions asked before are remembered (second-sighting.ts): a one-off answer dies young. */
  private readonly askedAnswers = new SecondSighting();
  private readonly askedBodies = new SecondSighting();
  private readonly matchOptions: MatchOptions;
  /** Reused by every decision of this service (decisions never yield mid-way). */
  private readonly scratch = new FeasibleNodesScratch();

  constructor(
    private readonly snapshots: SnapshotService,
    private readonly pods: PodService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.matchOptions = matchOptionsOf(config);
  }

  /**
   * POST /v1/decisions/feasible-nodes: the filter and score plugins for one pod over the candidate
   * nodes. An inline pod is validated and admitted as if it were created (admission defaults, A.6); a
   * referenced pod is used as stored. Explanations are redacted (A.2) by setting or below a role.
   */
  async feasibleNodes(body: unknown, principal: Principal): Promise<FeasibleNodesAnswer> {
    return (await this.decideFeasibleNodes(body, principal)).answer;
  }

  /** The same answer as JSON text (what REST sends), serialised once per cached answer. */
  async feasibleNodesJson(body: unknown, principal: Principal): Promise<string> {
    const decision = await this.decideFeasibleNodes(body, principal);
    return (decision.json ??= JSON.stringify(decision.answer));
  }

  private async decideFeasibleNodes(body: unknown, principal: Principal): Promise<CachedDecision> {
    const { input, inline } = this.feasibleNodesQuestion(body);
    const stored = inline === undefined ? await this.storedPod(input.podRef!) : undefined;
    const podPart = inline?.key ?? podKey(stored!.pod, stored!.boundTo);
    const redactTaints =
      this.config.REDACT_TAINTS || !roleAtLeast(principal.role, this.config.REDACT_TAINTS_BELOW_ROLE);
    const limit = input.limit ?? DEFAULT_FEASIBLE_LIMIT;
    const selection =
      input.nodeNames !== undefined
        ? canonicalJson(uniqueSorted(input.nodeNames))
        : input.labelSelector !== undefined
          ? canonicalJson(input.labelSelector)
          : '*';
    const snapshot = this.snapshots.snapshot;
    const rest = `\u0001${selection}\u0001${limit}\u0001${redactTaints}\u0001${snapshot.changeCount}`;
    // Answers are cached from their second sighting, so one never asked before has none: its canonical key is
    // not built (a hash collision only builds it early).
    let key: string | undefined;
    if (this.askedAnswers.hashSeenBefore(fnv1a(rest, podPart.hash))) {
      key = (podPart.text ??= canonicalJson(podPart.inputs)) + rest;
      const cached = this.decisionCache.get(key);
      if (cached !== undefined) {
        this.metrics.decisionCache.inc({ result: 'hit' });
        return cached;
      }
    }
    this.metrics.decisionCache.inc({ result: 'miss' });

    let table = snapshot.schedulingTable();
    const candidates = this.candidateRows(table, input.nodeNames, input.labelSelector);
    if (stored?.boundTo !== undefined) table = withoutOwnRequests(table, stored.boundTo, stored.pod.requests!);
    const compiled = inline?.compiled ?? compilePod(stored!.pod, this.matchOptions);
    const decision = decideFeasibleNodes(compiled, table, { redactTaints, limit, candidates, scratch: this.scratch });
    const answer: CachedDecision = { answer: presentFeasibleNodes(decision) };
    if (key !== undefined) this.decisionCache.set(key, answer);
    return answer;
  }

  /**
   * Parses and checks a body (400/422 as before); remembers valid ones by their JSON as sent (a client
   * repeating itself: JSON.stringify is cheap). The same body with its keys in another order is parsed
   * again (its answer is still found: the decision key is canonical); a canonical key for every body cost
   * a second walk of each distinct question for the sake of a rare one (bench/ANALYSIS.md).
   */
  private feasibleNodesQuestion(body: unknown): FeasibleNodesQuestion {
    const asSent = body !== null && typeof body === 'object' ? jsonOrUndefined(body) : undefined;
    const bodyKey = asSent !== undefined && asSent.length <= MAX_REMEMBERED_BODY ? asSent : undefined;
    if (bodyKey !== undefined) {
      const known = this.questions.get(bodyKey);
      if (known !== undefined) return known;
    }
    // the compiled reader for the bodies it is sure of; the schema (and its 400s) for everything else
    const fast = readFeasibleNodesBody(body);
    const input = fast !== FALLBACK ? fast : parseBody(feasibleNodesBodySchema, body, 'feasible-nodes request');
    exactlyOne(input, ['pod', 'podRef'], true);
    exactlyOne(input, ['nodeNames', 'labelSelector'], false);
    let question: FeasibleNodesQuestion = { input };
    if (input.pod) {
      const { pod } = this.admittedInlinePod(input.pod);
      question = {
        input,
        inline: { compiled: compilePod(pod, this.matchOptions), key: podKey(pod, undefined) },
      };
    }
    if (bodyKey !== undefined && this.askedBodies.seenBefore(bodyKey)) this.questions.set(bodyKey, question);
    return question;
  }

  /** Validated like a pod create (422, paths under `pod.`), then given the admission defaults (A.6). */
  private admittedInlinePod(body: PodSpecBody): { pod: PodToPlace; boundTo?: undefined } {
    const spec: PodSpec = {
      tolerations: (body.tolerations ?? []) as Toleration[],
      nodeSelector: body.nodeSelector ?? {},
      affinity: body.affinity ?? null,
      resources: body.resources ?? {},
      priority: body.priority ?? 0,
      owner: body.owner ?? null,
      hostNetwork: body.hostNetwork ?? false,
    };
    const errors = validatePodSpecObject(
      {
        tolerations: spec.tolerations,
        nodeSelector: spec.nodeSelector!,
        affinity: spec.affinity!,
        resources: spec.resources!,
      },
      this.matchOptions,
    ).map((e) => ({ ...e, field: `pod.${e.field}` }));
    if (errors.length > 0) throw invalidRequest('pod', errors);
    const admitted = this.pods.admit(spec);
    return { pod: { spec: admitted, requests: requestsVector(admitted.resources ?? {}) } };
  }

  /** An active pod from the snapshot; otherwise the stored one (404 when there is none). */
  private async storedPod(ref: PodRef): Promise<{ pod: PodToPlace; boundTo?: string }> {
    const stored =
      this.snapshots.snapshot.pod(ref.namespace, ref.name) ?? (await this.pods.get(ref.namespace, ref.name));
    const spec: PodSpec = {
      tolerations: stored.tolerations,
      nodeSelector: stored.nodeSelector,
      affinity: stored.affinity,
      resources: stored.resources,
    };
    const bound = stored.nodeName !== null && (stored.phase === 'Pending' || stored.phase === 'Running');
    return { pod: { spec, requests: stored.requests }, boundTo: bound ? stored.nodeName! : undefined };
  }

  /** {@link candidateNodes} as rows of the scheduling table (undefined: every node), with the same 404. */
  private candidateRows(
    table: NodeTable,
    names: string[] | undefined,
    labelSelector: string | undefined,
  ): Int32Array | undefined {
    if (names !== undefined) {
      const unique = uniqueSorted(names);
      const rows = unique.map((name) => nodeIndex(table, name));
      const missing = unique.filter((_, k) => rows[k] === undefined);
      if (missing.length > 0) {
        throw AppError.notFound('nodes', ...missing);
      }
      return Int32Array.from(rows as number[]);
    }
    if (labelSelector === undefined) return undefined;
    const matches = compileLabelSelector(labelSelector);
    const rows: number[] = [];
    for (let i = 0; i < table.count; i++) if (matches(table.nodes[i].labels)) rows.push(i);
    return Int32Array.from(rows);
  }
}

/** A bound pod asked about again: its own requests must not count against its own node twice. */
function withoutOwnRequests(table: NodeTable, nodeName: string, requests: ResourceVector): NodeTable {
  const i = nodeIndex(table, nodeName);
  if (i === undefined) return table;
  const node = table.nodes[i];
  const requested: ResourceVector = { ...node.requested };
  for (const [name, amount] of Object.entries(requests))
    if (name !== 'pods') requested[name] = (requested[name] ?? 0) - amount;
  requested.pods = Math.max(0, (requested.pods ?? 0) - 1);
  return withNodeResources(table, i, { ...node, requested });
}

/** What the answer depends on in a pod to place (compilePod reads these; `requests` is always set here). */
function schedulingInputs(pod: PodToPlace): unknown {
  return {
    tolerations: pod.spec.tolerations,
    nodeSelector: pod.spec.nodeSelector,
    affinity: pod.spec.affinity,
    requests: pod.requests,
  };
}

function presentFeasibleNodes(decision: FeasibleNodesDecision): FeasibleNodesAnswer {
  return {
    totalNodes: decision.totalNodes,
    feasibleCount: decision.feasibleCount,
    message: decision.message,
    nodes: decision.nodes.map((node) =>
      node.feasible
        ? { name: node.name, feasible: true, score: node.score, scores: node.scores }
        : {
            name: node.name,
            feasible: false,
            reasons: node.reasons.map((r) => ({
              plugin: r.plugin,
              message: r.message,
              ...(r.taint ? { taint: { key: r.taint.key, value: r.taint.value ?? '', effect: r.taint.effect } } : {}),
              ...(r.resource ? { resource: r.resource } : {}),
            })),
          },
    ),
  };
}

/** JSON.stringify, or undefined for a body nested deeper than V8's stack allows (thousands of levels). */
function jsonOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // RangeError: such a body is refused by validation; it is just not remembered
  }
}
