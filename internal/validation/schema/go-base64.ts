/**
 * Go's base64.StdEncoding.Decode, reduced to its error: encoding/json decodes a JSON string into a
 * []byte field with it, and kube reports the failure as `illegal base64 data at input byte N`
 * (a base64.CorruptInputError, offset in UTF-8 bytes). Padding is required, `\r` and `\n` are
 * skipped anywhere, and the offsets follow decodeQuantum exactly.
 */

const encoder = new TextEncoder();

const decodeMap = (() => {
  const map = new Int16Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) map[alphabet.charCodeAt(i)] = i;
  return map;
})();

const pad = 0x3d;

function isNewline(c: number | undefined): boolean {
  return c === 0x0a || c === 0x0d;
}

/** The corrupt-input byte offset Go's decoder reports, or -1 when the text decodes. */
export function base64CorruptOffset(text: string): number {
  // Plain ASCII needs no UTF-8 encoding pass: offsets are the same.
  const src = /^[\x00-\x7f]*$/.test(text) ? undefined : encoder.encode(text);
  const len = src === undefined ? text.length : src.length;
  const at = (i: number): number => (src === undefined ? text.charCodeAt(i) : (src[i] as number));
  let si = 0;
  while (si < len) {
    // One quantum: up to four alphabet bytes, newlines skipped.
    let j = 0;
    for (; j < 4; j++) {
      if (si === len) {
        if (j === 0) return -1;
        return si - j;
      }
      const c = at(si);
      si++;
      if (decodeMap[c] !== -1) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== pad) return si - 1;
      // Padding: only after two or three data bytes, and "==" needs its second "=".
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < len && isNewline(at(si))) si++;
        if (si === len) return len;
        if (at(si) !== pad) return si - 1;
        si++;
      }
      while (si < len && isNewline(at(si))) si++;
      if (si < len) return si;
      return -1;
    }
  }
  return -1;
}

/** `illegal base64 data at input byte N` for text Go cannot decode, else undefined. */
export function base64DecodeError(text: string): string | undefined {
  const offset = base64CorruptOffset(text);
  return offset < 0 ? undefined : `illegal base64 data at input byte ${offset}`;
}
