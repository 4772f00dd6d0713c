import type { Toleration } from '../../../domain/types';
import type { PodToPlan } from '../../model/stored-objects';
import { type JsonInterner, ownString, readUnreadableAgain } from './pod-rows';

/** The field separator (ASCII unit separator), as in `POD_TEXT`: JSON text escapes it as \u001f. */
const SEP = '\x1f';

/**
 * The fields of a `PodToPlan` as ONE text value per row (as `POD_TEXT` does for the whole pod): times as epoch
 * milliseconds, SQL NULL as ''. A NoExecute taint over 100 full nodes reads 11,000 pods; their labels, selectors,
 * affinity and resources (five of the six jsonb columns) were most of what PGlite turned into text, sent and sorted
 * (9.4 MB, sorted through a temp file), and the planner reads none of them (bench/ANALYSIS.md, issue 13).
 */
export const POD_TO_PLAN_TEXT = `concat_ws(E'\\x1f', id::text, namespace, name, uid, coalesce(node_name, ''), phase,
  coalesce((extract(epoch from bound_at) * 1000)::bigint::text, ''), (extract(epoch from created_at) * 1000)::bigint::text,
  tolerations::text)`;

const FIELDS = 9;

/**
 * `POD_TO_PLAN_TEXT` values as pods to plan, in their order. A row whose fields cannot be told apart (a name
 * holding the separator) is read whole instead (a StoredPod is a pod to plan too), all such rows with one call of
 * `readByIds` (rows of `POD_COLUMNS`, as arrays, in any order); a row gone by then is left out.
 */
export async function podsToPlanFromTexts(
  texts: readonly string[],
  json: JsonInterner,
  readByIds: (ids: string[]) => Promise<ReadonlyArray<readonly unknown[]>>,
): Promise<PodToPlan[]> {
  return readUnreadableAgain(
    texts.map((text) => podToPlanFromText(text, json)),
    json,
    readByIds,
  );
}

function podToPlanFromText(text: string, json: JsonInterner): PodToPlan | { unreadable: string } {
  const f = text.split(SEP);
  if (f.length !== FIELDS) return { unreadable: text.slice(0, text.indexOf(SEP)) };
  const [, namespace, name, uid, nodeName, phase, boundAt, createdAt, tolerations] = f;
  // Own copies, as the snapshot's reader makes them: a slice would keep the row's text alive for as long as an
  // event names the pod.
  return {
    namespace: json.text(namespace),
    name: ownString(name),
    uid: ownString(uid),
    nodeName: nodeName ? json.text(nodeName) : null,
    phase: json.text(phase),
    boundAt: boundAt ? new Date(Number(boundAt)) : null,
    createdAt: new Date(Number(createdAt)),
    tolerations: json.parse(tolerations) as Toleration[],
  };
}
