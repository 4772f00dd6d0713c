import { createHash } from 'node:crypto';

/** metav1.Time: RFC 3339 in seconds, as the API server writes it. */
export function kubeTime(date: Date | null | undefined): string | undefined {
  if (!date || Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * taintwise stores no uid for nodes: one derived from the name and the creation instant is stable for
 * the object's life and differs after a delete and re-create, which is all clients use a uid for.
 */
export function derivedUid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
