import type { Affinity, PodResources, ResourceVector, Toleration } from '../../../domain/types';
import type { StoredPod } from '../../model/stored-objects';

/**
 * Pods read with plain SQL, for the reads that return thousands of rows: the start-up snapshot
 * (150,000 pods) and the bound pods of the nodes a taint mutation changes (11,000 for 100 full
 * nodes). Prisma's findMany maps every row and JSON column itself and took 3–6x longer for the same
 * rows. Select `POD_TEXT` and map the values with `podsFromTexts` (or `POD_COLUMNS`, each row as an
 * array in that order, with `podFromRow`).
 */
export const POD_COLUMNS = `id::text, namespace, name, uid, node_name, phase, bound_at, tolerations::text, node_selector::text, affinity::text, priority,
  owner_kind, owner_name, resources::text, requests::text, host_network, resource_version, created_at, updated_at, labels::text`;

type PodRow = [
  string,
  string,
  string,
  string,
  string | null,
  string,
  Date | string | null,
  string,
  string,
  string | null,
  number,
  string | null,
  string | null,
  string,
  string,
  boolean,
  number,
  Date | string,
  Date | string,
  string,
];

export function podFromRow(row: readonly unknown[], json: JsonInterner): StoredPod {
  const [
    ,
    namespace,
    name,
    uid,
    nodeName,
    phase,
    boundAt,
    tolerations,
    nodeSelector,
    affinity,
    priority,
    ownerKind,
    ownerName,
    resources,
    requests,
    hostNetwork,
    rv,
    createdAt,
    updatedAt,
    labels,
  ] = row as PodRow;
  return {
    namespace,
    name,
    uid,
    labels: json.parse(labels) as Record<string, string>,
    nodeName,
    phase,
    boundAt: boundAt === null ? null : toDate(boundAt),
    tolerations: json.parse(tolerations) as Toleration[],
    nodeSelector: json.parse(nodeSelector) as Record<string, string>,
    affinity: affinity === null ? null : (json.parse(affinity) as Affinity),
    priority,
    owner: ownerKind && ownerName ? { kind: ownerKind, name: ownerName } : null,
    resources: json.parse(resources) as PodResources,
    requests: json.parse(requests) as ResourceVector,
    hostNetwork,
    resourceVersion: String(rv),
    createdAt: toDate(createdAt),
    updatedAt: toDate(updatedAt),
  };
}

/** The field separator of `POD_TEXT` (ASCII unit separator): JSON text escapes it as \u001f. */
const SEP = '\x1f';
/** Between the `POD_TEXT`s of several pods in one value (ASCII record separator; JSON text escapes it too). */
export const POD_RECORD_SEP = '\x1e';

/**
 * `POD_COLUMNS` as ONE text value per row, fields joined by `SEP`, times as epoch milliseconds and
 * SQL NULL as ''. PGlite decodes every value of a result in JavaScript; 150,000 pods × 19 values
 * took ~4.8 s to arrive, one value per row ~1.6 s (and a split). JSON columns cannot contain `SEP`
 * (JSON escapes control characters); the plain text columns are Kubernetes names, and a row whose
 * split does not give 20 fields anyway is read again by id with `POD_COLUMNS` (`podsFromTexts`).
 */
export const POD_TEXT = `concat_ws(E'\\x1f', id::text, namespace, name, uid, coalesce(node_name, ''), phase,
  coalesce((extract(epoch from bound_at) * 1000)::bigint::text, ''), tolerations::text, node_selector::text, coalesce(affinity::text, ''),
  priority::text, coalesce(owner_kind, ''), coalesce(owner_name, ''), resources::text, requests::text, host_network::text,
  resource_version::text, (extract(epoch from created_at) * 1000)::bigint::text, (extract(epoch from updated_at) * 1000)::bigint::text, labels::text)`;

const POD_FIELDS = 20;

/**
 * `POD_TEXT` values as StoredPods, in their order. The rows whose fields cannot be told apart are
 * read again, all with one call of `readByIds` (rows of `POD_COLUMNS`, as arrays, in any order).
 */
export async function podsFromTexts(
  texts: readonly string[],
  json: JsonInterner,
  readByIds: (ids: string[]) => Promise<ReadonlyArray<readonly unknown[]>>,
): Promise<StoredPod[]> {
  return readUnreadableAgain(
    texts.map((text) => podFromText(text, json)),
    json,
    readByIds,
  );
}

/**
 * Pods read from one-text rows, with the rows whose fields could not be told apart (`{ unreadable: id }`) read
 * again whole, all with one call of `readByIds` (rows of `POD_COLUMNS`, as arrays, in any order), in place; a row
 * gone by then is left out. A StoredPod stands for any lighter pod type a reader answers (`PodToPlan`).
 */
export async function readUnreadableAgain<P>(
  read: ReadonlyArray<P | { unreadable: string }>,
  json: JsonInterner,
  readByIds: (ids: string[]) => Promise<ReadonlyArray<readonly unknown[]>>,
): Promise<Array<P | StoredPod>> {
  const unreadable = read.flatMap((pod) => (isUnreadable(pod) ? [pod.unreadable] : []));
  if (unreadable.length === 0) return read as P[];
  const byId = new Map((await readByIds(unreadable)).map((row) => [String(row[0]), podFromRow(row, json)]));
  return read.flatMap((pod): Array<P | StoredPod> => {
    if (!isUnreadable(pod)) return [pod];
    const again = byId.get(pod.unreadable);
    return again ? [again] : []; // deleted in between
  });
}

function isUnreadable(pod: unknown): pod is { unreadable: string } {
  return typeof pod === 'object' && pod !== null && 'unreadable' in pod;
}

/** A `POD_TEXT` value as a StoredPod, or the row's id when its fields cannot be told apart. */
function podFromText(text: string, json: JsonInterner): StoredPod | { unreadable: string } {
  const f = text.split(SEP);
  if (f.length !== POD_FIELDS) return { unreadable: text.slice(0, text.indexOf(SEP)) };
  const [
    ,
    namespace,
    name,
    uid,
    nodeName,
    phase,
    boundAt,
    tolerations,
    nodeSelector,
    affinity,
    priority,
    ownerKind,
    ownerName,
    resources,
    requests,
    hostNetwork,
    rv,
    createdAt,
    updatedAt,
    labels,
  ] = f;
  // The kept strings are copied out of the row text: `split` gives slices that would keep each pod's whole
  // ~800-byte row alive for as long as the snapshot holds its name (~120 MiB at 150,000 pods).
  return {
    namespace: json.text(namespace),
    name: ownString(name),
    uid: ownString(uid),
    labels: json.parse(labels) as Record<string, string>,
    nodeName: nodeName ? json.text(nodeName) : null,
    phase: json.text(phase),
    boundAt: boundAt ? new Date(Number(boundAt)) : null,
    tolerations: json.parse(tolerations) as Toleration[],
    nodeSelector: json.parse(nodeSelector) as Record<string, string>,
    affinity: affinity ? (json.parse(affinity) as Affinity) : null,
    priority: Number(priority),
    owner: ownerKind && ownerName ? { kind: json.text(ownerKind), name: json.text(ownerName) } : null,
    resources: json.parse(resources) as PodResources,
    requests: json.parse(requests) as ResourceVector,
    hostNetwork: hostNetwork === 'true',
    resourceVersion: ownString(rv),
    createdAt: new Date(Number(createdAt)),
    updatedAt: new Date(Number(updatedAt)),
  };
}

/**
 * V8 makes a substring of 13 characters or more a slice that points into its parent; strings shorter
 * than that are copies already.
 */
const SLICE_MIN_LENGTH = 13;

/**
 * `text` as a string of its own, never a slice of a longer one. The JSON round trip is exact for every
 * string (lone surrogates included, unlike a UTF-8 Buffer's) and costs about what the split did.
 */
export function ownString(text: string): string {
  return text.length < SLICE_MIN_LENGTH ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * One parsed object per distinct JSON text, and one string per distinct short text (namespaces, node
 * names, phases, owners). Pods of one workload share their tolerations, selectors and resources, so
 * 150,000 pods carry a few thousand distinct JSON values: interning cuts the parse work and the memory
 * alike. Keys are own strings (see `ownString`), so the map keeps no row text alive. The shared objects
 * are never mutated: readers only read them, and writes replace whole StoredPod/StoredNode values.
 */
export class JsonInterner {
  private readonly parsed = new Map<string, unknown>();
  private readonly texts = new Map<string, string>();

  parse(text: string): unknown {
    let value = this.parsed.get(text);
    if (value === undefined) {
      value = JSON.parse(text);
      this.parsed.set(ownString(text), value);
    }
    return value;
  }

  text(text: string): string {
    let own = this.texts.get(text);
    if (own === undefined) {
      own = ownString(text);
      this.texts.set(own, own);
    }
    return own;
  }
}

export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
