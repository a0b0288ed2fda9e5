/**
 * PEM decoding as Go's encoding/pem does it: blocks are found anywhere in the text, each with its
 * type, optional "Key: value" headers and base64 body; text between blocks is skipped.
 */

/** One decoded PEM block. */
export interface PemBlock {
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Buffer;
}

const blockRegexp = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** Every well-formed block of text, in order. */
export function decodePem(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const m of text.matchAll(blockRegexp)) {
    const type = m[1] as string;
    const body = m[2] as string;
    const headers: Record<string, string> = {};
    let rest = body;
    const split = /\r?\n\r?\n/.exec(body);
    if (split && /^[^\s:]+:/.test(body)) {
      for (const line of body.slice(0, split.index).split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
      }
      rest = body.slice(split.index + split[0].length);
    }
    const b64 = rest.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) continue;
    blocks.push({ type, headers, bytes: Buffer.from(b64, 'base64') });
  }
  return blocks;
}
