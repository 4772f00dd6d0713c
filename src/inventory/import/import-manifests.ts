/**
 * decodeManifests + mapManifests in one call, for the `POST /v1/import` handler.
 */
import { decodeManifests, type ManifestFormat } from './decode';
import type { ImportError } from './inventory-input';
import { mapManifests, type MapResult } from './map-manifests';

export type ImportParseResult =
  /** The body could not be read (syntax, empty, wrong envelope): answer 400 with `errors`. */
  | { ok: false; errors: ImportError[]; notes: string[] }
  /** Upsert `nodes` and `pods`; report `errors` (items left out), `skipped`, `summary` and `notes`. */
  | ({ ok: true; format: ManifestFormat } & MapResult);

/**
 * @example parseImportBody(req.body, req.headers['content-type'], clock.now())
 */
export function parseImportBody(
  body: string | Buffer | Uint8Array,
  contentType: string | undefined,
  now: Date,
): ImportParseResult {
  const decoded = decodeManifests(body, contentType);
  if (decoded.errors.length > 0 || decoded.format === undefined) {
    return { ok: false, errors: decoded.errors, notes: decoded.notes };
  }
  const mapped = mapManifests(decoded.documents, now);
  return { ok: true, format: decoded.format, ...mapped, notes: [...decoded.notes, ...mapped.notes] };
}
