export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/**
 * 32-bit FNV-1a over a text's UTF-16 units, as an unsigned integer. `seed` continues a hash already taken (a key
 * of several parts hashed without joining them) or mixes in a number the text belongs to.
 */
export function fnv1a(text: string, seed = FNV_OFFSET): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}
