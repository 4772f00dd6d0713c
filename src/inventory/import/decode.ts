/**
 * Body → documents, for `POST /v1/import`: `kubectl get ... -o json` (one value), `-o yaml`
 * (one or more YAML documents) and the stdout of `kubectl cluster-info dump` (JSON values one after
 * the other, interleaved with container logs). Syntax only, plus the envelope every document must
 * have (an object; a list's `items` an array); what the items are is mapManifests' business.
 *
 * Any error here makes the whole body unusable (the caller answers 400).
 */
import { CORE_SCHEMA, loadAll, YAMLException } from 'js-yaml';
import type { ImportError } from './inventory-input';
import { decodeJsonStream, positionAt } from './json-stream';

export type ManifestFormat = 'json' | 'json-stream' | 'yaml';

export interface DecodeResult {
  documents: unknown[];
  /** Empty when the body decoded; otherwise the first syntax error (with its position) or envelope errors. */
  errors: ImportError[];
  /** Things the caller may want to tell: text after the JSON that was ignored, log blocks skipped. */
  notes: string[];
  /** How the body was read; undefined when it could not be. */
  format?: ManifestFormat;
}

const JSON_MEDIA_TYPES = new Set(['application/json', 'text/json']);
const YAML_MEDIA_TYPES = new Set(['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']);

/** The parser a Content-Type asks for, or undefined for an absent or unrelated one (then we sniff). */
export function parserForContentType(contentType: string | undefined): 'json' | 'yaml' | undefined {
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  if (!mediaType) return undefined;
  if (JSON_MEDIA_TYPES.has(mediaType) || mediaType.endsWith('+json')) return 'json';
  if (YAML_MEDIA_TYPES.has(mediaType) || mediaType.endsWith('+yaml')) return 'yaml';
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf16le = new TextDecoder('utf-16le', { fatal: true });
const utf16be = new TextDecoder('utf-16be', { fatal: true });

/**
 * The body as text: UTF-8 (a BOM is dropped), or UTF-16 when it starts with a UTF-16 byte-order mark
 * (what PowerShell's `>` writes). Throws on bytes that are not valid in the encoding.
 */
export function bodyText(body: string | Buffer | Uint8Array): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return utf16le.decode(body.subarray(2));
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return utf16be.decode(body.subarray(2));
  const text = utf8.decode(body); // TextDecoder drops a UTF-8 BOM itself
  return text;
}

function documentError(index: number, message: string, extra: Partial<ImportError> = {}): ImportError {
  return { index, kind: 'Document', message, ...extra };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/**
 * Decodes an import body into documents.
 * @example decodeManifests('{"kind":"NodeList","items":[]}', 'application/json').documents // [{ kind: 'NodeList',
 * items: [] }]
 */
export function decodeManifests(body: string | Buffer | Uint8Array, contentType?: string): DecodeResult {
  let text: string;
  try {
    text = bodyText(body);
  } catch {
    return {
      documents: [],
      notes: [],
      errors: [documentError(0, 'the body is not valid UTF-8 (nor UTF-16 with a byte-order mark)')],
    };
  }
  const first = text.search(/\S/);
  if (first === -1) {
    return {
      documents: [],
      notes: [],
      errors: [documentError(0, 'the body is empty: expected a Kubernetes List, NodeList or PodList (JSON or YAML)')],
    };
  }
  const declared = parserForContentType(contentType);
  const startsLikeJson = text[first] === '{' || text[first] === '[';
  const parser = declared ?? (startsLikeJson ? 'json' : 'yaml');
  return parser === 'json' ? decodeJson(text, contentType, declared !== undefined) : decodeYaml(text);
}

function decodeJson(text: string, contentType: string | undefined, declared: boolean): DecodeResult {
  // The common case, `kubectl get -o json`, is one JSON document: the native parser alone reads it.
  // Streams of several documents (cluster-info dumps) and malformed input take the scanner below,
  // which also finds the position of a syntax error.
  const single = parseSingleDocument(text);
  const stream = single ?? decodeJsonStream(text);
  const notes = stream.notes;
  if (stream.error) {
    const position = positionAt(text, stream.error.offset);
    let message = `invalid JSON at line ${position.line}, column ${position.column}: ${stream.error.message}`;
    if (declared && stream.values.length === 0 && !/^\s*[[{]/.test(text)) {
      message += ` (the Content-Type is ${contentType}; send YAML as application/yaml)`;
    }
    return {
      documents: stream.values,
      notes,
      format: 'json',
      errors: [documentError(stream.values.length, message, { position })],
    };
  }
  const errors: ImportError[] = [];
  stream.values.forEach((doc, index) => {
    for (const problem of envelopeProblems(doc, index))
      errors.push({ ...problem, position: positionAt(text, stream.offsets[index]) });
  });
  const format: ManifestFormat = stream.values.length > 1 || notes.length > 0 ? 'json-stream' : 'json';
  return { documents: stream.values, errors, notes, format };
}

function parseSingleDocument(text: string): ReturnType<typeof decodeJsonStream> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return { values: [value], offsets: [text.length - text.trimStart().length], notes: [] };
  } catch {
    return undefined;
  }
}

function decodeYaml(text: string): DecodeResult {
  let loaded: unknown[];
  try {
    loaded = [];
    // CORE_SCHEMA: YAML 1.2 core types only; timestamps stay strings as Kubernetes reads them.
    loadAll(text, (doc) => loaded.push(doc), { schema: CORE_SCHEMA });
  } catch (e) {
    if (e instanceof YAMLException) {
      const mark = e.mark as { position?: number; line?: number; column?: number } | undefined;
      const position =
        mark && typeof mark.position === 'number'
          ? { offset: mark.position, line: (mark.line ?? 0) + 1, column: (mark.column ?? 0) + 1 }
          : undefined;
      const where = position ? ` at line ${position.line}, column ${position.column}` : '';
      return {
        documents: [],
        notes: [],
        format: 'yaml',
        errors: [documentError(0, `invalid YAML${where}: ${e.reason}`, position ? { position } : {})],
      };
    }
    throw e;
  }
  const documents = loaded.filter((doc) => doc !== null && doc !== undefined);
  // Without aliases a document has at most one node per character; aliases can make it exponential
  // ("billion laughs"). kubectl never writes aliases, so a generous linear budget is safe.
  const budget = 2 * text.length + 1000;
  if (expandedNodeCount(documents, budget) > budget) {
    return {
      documents: [],
      notes: [],
      format: 'yaml',
      errors: [
        documentError(
          0,
          `the YAML expands to more than ${budget} values through aliases (*anchor references); refusing it`,
        ),
      ],
    };
  }
  if (documents.length === 0) {
    return {
      documents,
      notes: [],
      format: 'yaml',
      errors: [documentError(0, 'the body holds no YAML document (only comments or separators)')],
    };
  }
  const errors = documents.flatMap((doc, index) => envelopeProblems(doc, index));
  return { documents, errors, notes: [], format: 'yaml' };
}

/** A document must be an object (or an array of objects); a list's `items` must be an array. */
export function envelopeProblems(doc: unknown, index: number): ImportError[] {
  const ordinal = `document ${index + 1}`;
  if (Array.isArray(doc)) return [];
  if (typeof doc !== 'object' || doc === null) {
    return [
      documentError(
        index,
        `${ordinal} is ${typeName(doc)}; expected a Kubernetes object (List, NodeList, PodList, Node or Pod)`,
      ),
    ];
  }
  const obj = doc as Record<string, unknown>;
  const kind = typeof obj.kind === 'string' ? obj.kind : undefined;
  if (obj.kind !== undefined && obj.kind !== null && kind === undefined) {
    return [documentError(index, `${ordinal}: kind must be a string, not ${typeName(obj.kind)}`, { field: 'kind' })];
  }
  const isList = kind?.endsWith('List') || (kind === undefined && 'items' in obj);
  if (isList && obj.items !== undefined && obj.items !== null && !Array.isArray(obj.items)) {
    return [
      documentError(index, `${ordinal} (${kind ?? 'a list'}): items must be an array, not ${typeName(obj.items)}`, {
        kind: kind ?? 'Document',
        field: 'items',
      }),
    ];
  }
  return [];
}

/** Values in `roots` counting every alias use again, stopping as soon as the count passes `limit`. */
export function expandedNodeCount(roots: unknown[], limit: number): number {
  const stack: unknown[] = [...roots];
  let count = 0;
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    count++;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (Object.hasOwn(value, key)) {
          count++;
          stack.push((value as Record<string, unknown>)[key]);
        }
      }
    }
  }
  return count;
}
