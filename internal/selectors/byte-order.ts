/**
 * Go compares and sorts strings by their UTF-8 bytes, which is code point order. JavaScript's
 * `<` compares UTF-16 code units, which disagrees for characters above U+FFFF versus U+E000–U+FFFF.
 * Selector canonical forms (sorted keys and values) must follow Go's order.
 */

/** Maps a UTF-16 code unit so that unit order agrees with code point order. */
function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Compares two strings as Go does (byte-wise UTF-8): negative, zero or positive. Pure. */
export function compareByteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** Returns a new array of the strings sorted in Go order; the input is left untouched. */
export function sortedByteOrder(values: readonly string[]): string[] {
  return [...values].sort(compareByteOrder);
}
