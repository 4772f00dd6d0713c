/**
 * Texts the snapshot keeps for as long as an object lives, as single flat strings. JSON.stringify and `+` may
 * answer a rope (a tree of concatenated strings: seen in the heap as four objects for a node's record); a copy
 * made through bytes is one string.
 */
export function flatString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The value's JSON as one flat string. */
export function flatJson(value: unknown): string {
  return flatString(JSON.stringify(value));
}
