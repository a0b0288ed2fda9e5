/**
 * Base64 as Go's encoding/json decodes a []byte field (base64.StdEncoding): padding required,
 * CR and LF ignored, and the error names the first offending byte the way Go's
 * CorruptInputError does, so Secret data and ConfigMap binaryData fail with Go's text.
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const decodeMap = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;
const pad = 0x3d;
const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/**
 * The byte offset Go reports for a malformed standard-base64 string, or undefined when it decodes.
 * Works on the UTF-8 bytes, as Go does.
 */
export function base64ErrorOffset(s: string): number | undefined {
  const src = Buffer.from(s, 'utf8');
  let si = 0;
  while (si < src.length) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const c = src[si++] as number;
      if ((decodeMap[c] as number) >= 0) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== pad) return si - 1;
      // Padding: only at the third or fourth position of a quantum, and then nothing but newlines.
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== pad) return si - 1;
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}

/** Go's error text for a string that is not standard base64, or undefined when it decodes. */
export function base64Error(s: string): string | undefined {
  const at = base64ErrorOffset(s);
  return at === undefined ? undefined : `illegal base64 data at input byte ${at}`;
}

/** The number of bytes s decodes to (s must be valid base64). */
export function base64DecodedLength(s: string): number {
  return Buffer.from(s, 'base64').length;
}
