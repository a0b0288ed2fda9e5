/**
 * JSON text as kube's strategic merge patch reads and writes it: integers keep full int64 precision
 * (k8s.io/apimachinery/pkg/util/json decodes them as int64, here bigint beyond 2^53), and output is
 * encoding/json's (object keys sorted, no spaces, <, > and & escaped).
 */
import { errBadJSONDoc } from './errors.js';
import { compareGoStrings, isMap } from './go-values.js';
import { createThreeWayMergePatch, createTwoWayMergePatch, strategicMergePatch } from './strategic-merge.js';
import type { JsonMap, PatchSchema } from './types.js';
import { setOwnKey } from '../../../collections/own-key.js';

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** A strict JSON parser that keeps integers beyond Number.MAX_SAFE_INTEGER (within int64) as bigint. */
class LosslessParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const v = this.value();
    this.space();
    if (this.pos !== this.text.length) this.fail();
    return v;
  }

  private fail(): never {
    throw new SyntaxError(`invalid JSON at offset ${this.pos}`);
  }

  private space(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos] as string)) this.pos++;
  }

  private value(): unknown {
    this.space();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail();
  }

  private object(): JsonMap {
    const out: JsonMap = {};
    this.pos++;
    this.space();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text[this.pos] !== '"') this.fail();
      const key = this.string();
      this.space();
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      setOwnKey(out, key, this.value());
      this.space();
      const c = this.text[this.pos++];
      if (c === '}') return out;
      if (c !== ',') this.fail();
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.space();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.text[this.pos++];
      if (c === ']') return out;
      if (c !== ',') this.fail();
    }
  }

  private string(): string {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(this.text.slice(this.pos));
    if (!m) this.fail();
    this.pos += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private number(): number | bigint {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!m) this.fail();
    this.pos += m[0].length;
    const n = Number(m[0]);
    if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(n)) {
      const big = BigInt(m[0]);
      if (big >= int64Min && big <= int64Max) return big;
    }
    return n;
  }
}

/** Parses JSON text, keeping int64 precision. Throws SyntaxError on malformed text. */
export function parseJsonLossless(text: string): unknown {
  return new LosslessParser(text).parseDocument();
}

/** json.Marshal of a decoded value: sorted keys, no spaces, Go's escaping, bigint as digits. */
export function marshalGoJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`json: unsupported value: ${v}`);
    return JSON.stringify(v);
  }
  if (typeof v === 'string') {
    return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(marshalGoJson).join(',')}]`;
  const m = v as JsonMap;
  const keys = Object.keys(m).sort(compareGoStrings);
  return `{${keys.map((k) => `${marshalGoJson(k)}:${marshalGoJson(m[k])}`).join(',')}}`;
}

/** A document's text as a JSON object: absent is empty, malformed or not an object is ErrBadJSONDoc. */
function documentOf(text: string | undefined, absentIsEmpty: boolean): JsonMap | null {
  if (text === undefined || (absentIsEmpty && text.length === 0)) return null;
  let v: unknown;
  try {
    v = parseJsonLossless(text);
  } catch {
    throw errBadJSONDoc();
  }
  if (v === null) return null;
  if (!isMap(v)) throw errBadJSONDoc();
  return v;
}

/** StrategicMergePatch over JSON text (undefined original or patch: an empty object). */
export function strategicMergePatchJson(original: string | undefined, patch: string | undefined, schema: PatchSchema): string {
  return marshalGoJson(strategicMergePatch(documentOf(original, false), documentOf(patch, false), schema));
}

/** CreateTwoWayMergePatch over JSON text (absent or empty documents are empty objects). */
export function createTwoWayMergePatchJson(original: string | undefined, modified: string | undefined, schema: PatchSchema): string {
  return marshalGoJson(createTwoWayMergePatch(documentOf(original, true), documentOf(modified, true), schema));
}

/** CreateThreeWayMergePatch over JSON text (absent or empty documents are empty objects). */
export function createThreeWayMergePatchJson(
  original: string | undefined,
  modified: string | undefined,
  current: string | undefined,
  schema: PatchSchema,
  overwrite: boolean,
): string {
  return marshalGoJson(createThreeWayMergePatch(documentOf(original, true), documentOf(modified, true), documentOf(current, true), schema, overwrite));
}
