/**
 * JSON values as structured-merge-diff sees them (sigs.k8s.io/structured-merge-diff/v4/value):
 * the total order used to sort set members and list keys, equality (ints and floats compare
 * numerically), Go's JSON text for values inside path elements, and value.ToString for paths in
 * messages. `undefined` is never a value here: it stands for "absent" in the walkers.
 */
import { setOwnKey } from '../collections/own-key.js';

/** A JSON value (maps are plain objects). */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** A JSON object. */
export type ValueMap = { [key: string]: Value };

/** True when v is a JSON object (not null, not an array). */
export function isMap(v: unknown): v is ValueMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when v is a scalar (number, string or boolean; null is not a scalar). */
export function isScalar(v: unknown): v is number | string | boolean {
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
}

/** Compares strings the way Go's strings.Compare does: by UTF-8 bytes, i.e. by code point. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after U+E000..U+FFFF in code point order.
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    const cx = a.codePointAt(i) ?? x;
    const cy = b.codePointAt(i) ?? y;
    return cx < cy ? -1 : cx > cy ? 1 : 0;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function rank(v: Value): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null) return 4;
  return 5;
}

/** value.Compare: numbers < strings < booleans < lists < maps < null; a total order. */
export function compareValues(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as Value[];
      const lb = b as Value[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i]!, lb[i]!);
        if (c !== 0) return c;
      }
      return la.length < lb.length ? -1 : la.length > lb.length ? 1 : 0;
    }
    case 4: {
      const ka = Object.keys(a as ValueMap).sort(compareStrings);
      const kb = Object.keys(b as ValueMap).sort(compareStrings);
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = compareStrings(ka[i]!, kb[i]!);
        if (c !== 0) return c;
        const d = compareValues((a as ValueMap)[ka[i]!]!, (b as ValueMap)[kb[i]!]!);
        if (d !== 0) return d;
      }
      return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
    }
    default:
      return 0;
  }
}

/** value.Equals: deep equality, numbers compared numerically, map key order ignored. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i]!, b[i]!)) return false;
    return true;
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k) || !valuesEqual(a[k]!, b[k]!)) return false;
    }
    return true;
  }
  return false;
}

/** A deep copy of a JSON value. */
export function cloneValue<T extends Value>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneValue(x)) as T;
  if (isMap(v)) {
    const out: ValueMap = {};
    for (const k of Object.keys(v)) setOwnKey(out, k, cloneValue(v[k]!));
    return out as T;
  }
  return v;
}

const htmlEscapes: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** A string as Go's encoding/json writes it (HTML characters and U+2028/9 escaped). */
export function goJSONString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => htmlEscapes[c]!);
}

/** A value as Go's encoding/json writes it: map keys sorted, strings escaped like Go. */
export function goJSON(v: Value): string {
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  const keys = Object.keys(v).sort(compareStrings);
  return `{${keys.map((k) => `${goJSONString(k)}:${goJSON(v[k]!)}`).join(',')}}`;
}

/** A string as Go's %q prints it. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** value.ToString: the human-readable form used inside printed paths (`[name="a"]`). */
export function valueToString(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  const keys = Object.keys(v).sort(compareStrings);
  return `{${keys.map((k) => `${k}=${valueToString(v[k]!)}`).join(',')}}`;
}
