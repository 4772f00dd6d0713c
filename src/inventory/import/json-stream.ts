/**
 * Decoding a stream of concatenated JSON values, as `kubectl cluster-info dump` prints them
 * (a NodeList, then per namespace an EventList, ..., a PodList, then the pods' container logs as plain
 * text between `==== START logs for container C of pod NS/NAME ====` and the matching END line).
 *
 * Each top-level value is delimited by a bracket scanner (strings skipped with indexOf, so a 10 MB
 * body is scanned in a few milliseconds) and then handed to the native JSON.parse. A precise
 * validator runs only when JSON.parse fails, to report the first error with its line and column.
 */
import type { TextPosition } from './inventory-input';

/** 1-based line and column of `offset` in `text` (columns count UTF-16 code units). */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { offset, line, column: offset - lineStart + 1 };
}

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export function isJsonWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isJsonWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The index just past the object or array that starts at `start`, found by matching brackets
 * outside strings. Returns a syntax error for a mismatched bracket or an input that ends first
 * (the value is truncated). Other syntax errors are left to JSON.parse.
 */
export function scanCompoundValue(text: string, start: number): { end: number } | JsonSyntaxError {
  const closers: number[] = [];
  const n = text.length;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j === -1)
          return {
            offset: n,
            message: `unexpected end of input: the string opened at offset ${i} is not closed (truncated JSON?)`,
          };
        let backslashes = 0;
        for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
        if (backslashes % 2 === 0) break;
        j++;
      }
      i = j + 1;
      continue;
    }
    if (c === OPEN_BRACE) closers.push(CLOSE_BRACE);
    else if (c === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      const expected = closers.pop();
      if (expected !== c) {
        const found = String.fromCharCode(c);
        return {
          offset: i,
          message:
            expected === undefined
              ? `unexpected '${found}'`
              : `expected '${String.fromCharCode(expected)}' but found '${found}'`,
        };
      }
      if (closers.length === 0) return { end: i + 1 };
    }
    i++;
  }
  return { offset: n, message: `unexpected end of input: ${closers.length} unclosed bracket(s) (truncated JSON?)` };
}

/**
 * The first syntax error of the JSON value in `text[start, end)`, worded for a person and placed
 * exactly, or undefined when the value is valid. Only used after JSON.parse has failed.
 */
export function findJsonSyntaxError(text: string, start: number, end: number): JsonSyntaxError | undefined {
  const fail = (offset: number, message: string): JsonSyntaxError => ({ offset, message });
  const describe = (i: number): string => (i >= end ? 'end of input' : `'${text[i]}'`);
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  let i = start;

  const ws = () => {
    while (i < end && isJsonWhitespace(text.charCodeAt(i))) i++;
  };
  const string = (): JsonSyntaxError | undefined => {
    const open = i;
    i++;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        return undefined;
      }
      if (c < 0x20)
        return fail(
          i,
          `control character U+${c.toString(16).padStart(4, '0')} in a string (opened at offset ${open}) must be escaped`,
        );
      if (c === BACKSLASH) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            return fail(i, 'invalid \\u escape: expected 4 hexadecimal digits');
          i += 6;
          continue;
        }
        if (e === undefined || i + 1 >= end) return fail(end, 'unexpected end of input in a string');
        if (!'"\\/bfnrt'.includes(e)) return fail(i, `invalid escape '\\${e}' in a string`);
        i += 2;
        continue;
      }
      i++;
    }
    return fail(end, `unexpected end of input: the string opened at offset ${open} is not closed`);
  };
  const value = (depth: number): JsonSyntaxError | undefined => {
    if (depth > 512) return fail(i, 'nesting deeper than 512 levels');
    ws();
    if (i >= end) return fail(i, 'unexpected end of input: expected a value');
    const c = text.charCodeAt(i);
    if (c === QUOTE) return string();
    if (c === OPEN_BRACE) {
      i++;
      ws();
      if (text.charCodeAt(i) === CLOSE_BRACE) {
        i++;
        return undefined;
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== QUOTE)
          return fail(i, `expected a double-quoted property name but found ${describe(i)}`);
        const keyError = string();
        if (keyError) return keyError;
        ws();
        if (text[i] !== ':') return fail(i, `expected ':' after a property name but found ${describe(i)}`);
        i++;
        const memberError = value(depth + 1);
        if (memberError) return memberError;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text.charCodeAt(i) === CLOSE_BRACE) {
          i++;
          return undefined;
        }
        return fail(i, `expected ',' or '}' after a property value but found ${describe(i)}`);
      }
    }
    if (c === OPEN_BRACKET) {
      i++;
      ws();
      if (text.charCodeAt(i) === CLOSE_BRACKET) {
        i++;
        return undefined;
      }
      for (;;) {
        const elementError = value(depth + 1);
        if (elementError) return elementError;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text.charCodeAt(i) === CLOSE_BRACKET) {
          i++;
          return undefined;
        }
        return fail(i, `expected ',' or ']' after an array element but found ${describe(i)}`);
      }
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return undefined;
      }
    }
    NUMBER.lastIndex = i;
    if (NUMBER.exec(text) && NUMBER.lastIndex <= end) {
      i = NUMBER.lastIndex;
      return undefined;
    }
    return fail(i, `unexpected ${describe(i)}: expected a value (object, array, string, number, true, false or null)`);
  };

  const error = value(0);
  if (error) return error;
  ws();
  return i < end ? fail(i, `unexpected ${describe(i)} after the end of the JSON value`) : undefined;
}

/** Parses `text[start, end)` with JSON.parse; on failure, locates the error precisely. */
export function parseJsonValue(text: string, start: number, end: number): { value: unknown } | JsonSyntaxError {
  try {
    return { value: JSON.parse(start === 0 && end === text.length ? text : text.slice(start, end)) };
  } catch (e) {
    return findJsonSyntaxError(text, start, end) ?? { offset: start, message: (e as Error).message };
  }
}

/** A `kubectl cluster-info dump` container log block header. */
const LOG_START = /^==== START logs for container (.*) of pod (.*) ====\r?$/;

export interface JsonStreamResult {
  values: unknown[];
  /** Offsets where each value starts (parallel to `values`). */
  offsets: number[];
  error?: JsonSyntaxError;
  notes: string[];
}

/**
 * Decodes consecutive top-level JSON values. Between and after them, `cluster-info dump` log blocks
 * are skipped (their START/END markers are recognised, so JSON after the logs, i.e. the next
 * namespace's lists, is decoded too). Any other text stops decoding and is reported as a note, except
 * text that can only be broken JSON (a stray `}`, `]`, `,`, `:`, a string or a number), which is an error.
 */
export function decodeJsonStream(text: string): JsonStreamResult {
  const values: unknown[] = [];
  const offsets: number[] = [];
  const notes: string[] = [];
  let logBlocks = 0;
  let logChars = 0;
  let i = skipWhitespace(text, 0);
  const finish = (error?: JsonSyntaxError): JsonStreamResult => {
    if (logBlocks > 0)
      notes.push(`skipped ${logBlocks} container log block(s) (${logChars} characters) of a cluster-info dump`);
    return error ? { values, offsets, notes, error } : { values, offsets, notes };
  };

  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const scanned = scanCompoundValue(text, i);
      if (!('end' in scanned)) return finish(refine(text, i, scanned));
      const parsed = parseJsonValue(text, i, scanned.end);
      if (!('value' in parsed)) return finish(parsed);
      values.push(parsed.value);
      offsets.push(i);
      i = skipWhitespace(text, scanned.end);
      continue;
    }
    if (values.length === 0) {
      // Not an object or array: a scalar document (reported by the caller) or not JSON at all.
      const parsed = parseJsonValue(text, i, text.length);
      if (!('value' in parsed)) return finish(parsed);
      values.push(parsed.value);
      offsets.push(i);
      return finish();
    }
    if ('}],:"-0123456789'.includes(text[i])) {
      return finish({ offset: i, message: `unexpected '${text[i]}' after the end of JSON document ${values.length}` });
    }
    const lineEnd = text.indexOf('\n', i);
    const line = text.slice(i, lineEnd === -1 ? text.length : lineEnd);
    const header = LOG_START.exec(line);
    if (header) {
      const endMarker = `==== END logs for container ${header[1]} of pod ${header[2]} ====`;
      const endAt = text.indexOf(endMarker, i + line.length);
      if (endAt === -1) {
        notes.push(
          `stopped at line ${positionAt(text, i).line}: the log block "${line.trim()}" has no END marker; the rest (${text.length - i} characters) was ignored`,
        );
        return finish();
      }
      logBlocks++;
      logChars += endAt + endMarker.length - i;
      i = skipWhitespace(text, endAt + endMarker.length);
      continue;
    }
    const preview = line.length > 80 ? `${line.slice(0, 80)}…` : line;
    notes.push(
      `stopped at line ${positionAt(text, i).line} (non-JSON text "${preview.trim()}"); the remaining ${text.length - i} characters were ignored`,
    );
    return finish();
  }
  return finish();
}

/**
 * A scanner error can be reported later than the real mistake (a stray character inside an object
 * is only noticed at the closing bracket, or never when the input ends). Prefer the validator's
 * error when it finds an earlier one.
 */
function refine(text: string, start: number, scanned: JsonSyntaxError): JsonSyntaxError {
  const precise = findJsonSyntaxError(text, start, Math.min(text.length, scanned.offset + 1));
  if (precise && precise.offset < scanned.offset) return precise;
  return scanned;
}
