import { applyPatch as applyJsonPatch } from 'fast-json-patch';
import { AppError } from '../kernel/errors/app-error';
import { applyStrategicMergePatch } from './strategic-merge-patch';

/** The three patch types kubectl and client libraries send (apiserver handlers/patch.go). */
export const PATCH_CONTENT_TYPES = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
} as const;

export type PatchType = (typeof PATCH_CONTENT_TYPES)[keyof typeof PATCH_CONTENT_TYPES];

export function patchTypeOf(contentType: string | undefined): PatchType {
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const type = PATCH_CONTENT_TYPES[base as keyof typeof PATCH_CONTENT_TYPES];
  if (!type) {
    throw new AppError(
      'BadRequest',
      `the body of the request was in an unknown format - accepted media types include: ${Object.keys(PATCH_CONTENT_TYPES).join(', ')}`,
      [],
      { unsupportedMediaType: true },
    );
  }
  return type;
}

/** The patched object; a patch that cannot apply is a 400 / 422 in the API server's words, never a 500. */
export function applyPatch(
  type: PatchType,
  original: Record<string, unknown>,
  patch: unknown,
): Record<string, unknown> {
  try {
    if (type === 'strategic') return applyStrategicMergePatch(original as never, patch);
    if (type === 'merge') return mergePatch(structuredClone(original), patch) as Record<string, unknown>;
    if (!Array.isArray(patch)) throw new Error('a JSON patch must be a list of operations');
    const result = applyJsonPatch(structuredClone(original), patch as never, true, false).newDocument;
    if (result === null || typeof result !== 'object' || Array.isArray(result))
      throw new Error('the patch replaced the object');
    return result as Record<string, unknown>;
  } catch (e) {
    if (e instanceof AppError) throw e;
    const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new AppError(type === 'json' ? 'Invalid' : 'BadRequest', `the patch could not be applied: ${message}`);
  }
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
