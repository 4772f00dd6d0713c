/**
 * After a relist (410 Gone, or a resource that cannot be watched): which mirrored objects the cluster no longer
 * has. `stored` are the keys taintwise holds as the cluster's; `listed` what the fresh list returned. Objects
 * created locally are never in `stored` (they are not the cluster's), so a relist never deletes them. Pure.
 */
export function vanishedKeys(stored: Iterable<string>, listed: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const key of stored) if (!listed.has(key)) out.push(key);
  return out.sort();
}

/** `namespace/name` → its parts (a Kubernetes name never contains `/`). */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
