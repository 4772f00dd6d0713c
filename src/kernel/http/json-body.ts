import { errorCodes } from 'fastify';
import { parse as parseSecureJson } from 'secure-json-parse';

/** Fastify's content-type parser callback: an error, or the parsed body. */
export type ParserDone = (error: Error | null, body?: unknown) => void;

/**
 * A JSON body as Fastify's own parser reads it: secure-json-parse, a `__proto__` or `constructor` key refused
 * (prototype poisoning), any failure reported as FST_ERR_CTP_INVALID_JSON_BODY (400); an empty or all-blank body
 * is no body (undefined: the route's own checks say what is missing).
 *
 * Not Fastify's getDefaultJsonParser(): it calls `done`, and with it the whole handler chain, inside its try block.
 * So a synchronous throw downstream came back as "not valid JSON", and, measured under a steady 1,000 distinct
 * feasible-nodes questions a second, every minor collection promoted ~6 MB of the requests' objects into the old
 * generation (12 % of all allocated), which then filled every ~7 s (bench/ANALYSIS.md, "requests that were
 * promoted"). Here the body is parsed first and `done` is called after the try: ~0 promoted.
 */
export function parseJsonBody(text: string, done: ParserDone): void {
  if (text.trim() === '') return done(null, undefined);
  let value: unknown;
  try {
    value = parseSecureJson(text, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
  }
  done(null, value);
}
