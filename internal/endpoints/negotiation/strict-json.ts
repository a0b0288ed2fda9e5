/**
 * A JSON parser that also reports duplicate object keys, as kube's strict decoding does
 * (sigs.k8s.io/json): the value is what JSON.parse would give (the last duplicate wins) and each
 * repeated key is reported once per repetition with its path from the document root
 * ("spec.paused", "spec.template.spec.containers[0].imagePullPolicy").
 */

import { setOwnKey } from '../../collections/own-key.js';
import { nestingDepthError } from './nesting-depth.js';

/** A parse result: the value, and the paths of keys that appeared more than once in their object. */
export interface StrictJson {
  readonly value: unknown;
  readonly duplicates: string[];
  /**
   * The numbers written with a fraction or an exponent (`1e3`, `1.0`), by path, as written: JSON.parse
   * makes 1000 of `1e3`, but Go's decoder refuses such a literal in an integer field.
   */
  readonly numberLiterals?: ReadonlyMap<string, string>;
}

/** A syntax error with JSON.parse's kind of message. */
export class JsonSyntaxError extends SyntaxError {}

/** How many object keys value holds, all levels together (a repeated key counted once). Keeps its own stack, so any depth JSON.parse gives is safe. */
export function countKeys(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const e of v) if (e !== null && typeof e === 'object') stack.push(e);
      continue;
    }
    for (const k in v as Record<string, unknown>) {
      n++;
      const e = (v as Record<string, unknown>)[k];
      if (e !== null && typeof e === 'object') stack.push(e);
    }
  }
  return n;
}

// A string token, escapes included (run only over text JSON.parse accepted).
const stringToken = /"(?:[^"\\]|\\.)*"/g;
// A digit followed by a fraction or an exponent, inside strings or out.
const fractionOrExponent = /\d[.eE]/;

/** Whether text between from and to (outside strings) writes a number with a fraction or an exponent. */
function fractionBetween(text: string, from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const c = text.charCodeAt(j);
    // Outside strings a '.' is only ever a fraction, and an 'e' after a digit an exponent.
    if (c === 0x2e) return true;
    if ((c === 0x65 || c === 0x45) && j > 0 && text.charCodeAt(j - 1) >= 0x30 && text.charCodeAt(j - 1) <= 0x39) return true;
  }
  return false;
}

/**
 * The common case first: JSON.parse, certified free of repeated keys when the value holds as many
 * keys as the text names. Undefined when the text is not JSON, repeats a key, or writes a number
 * with a fraction or an exponent (whose literal the walk below records).
 */
function parseUnique(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return value;
  let keys = 0;
  // Only a text with such a pair somewhere has its gaps between strings looked at.
  const scanGaps = fractionOrExponent.test(text);
  let gapStart = 0;
  stringToken.lastIndex = 0;
  for (let m = stringToken.exec(text); m; m = stringToken.exec(text)) {
    const after = m.index + m[0].length;
    if (scanGaps && fractionBetween(text, gapStart, m.index)) return undefined;
    gapStart = after;
    let j = after;
    while (j < text.length && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d || text.charCodeAt(j) === 0x09)) j++;
    if (text.charCodeAt(j) === 0x3a) keys++;
  }
  if (scanGaps && fractionBetween(text, gapStart, text.length)) return undefined;
  return countKeys(value) === keys ? value : undefined;
}

/** Parses text; throws JsonSyntaxError on malformed input. */
export function parseStrictJson(text: string): StrictJson {
  const tooDeep = nestingDepthError(text);
  if (tooDeep) throw new JsonSyntaxError(tooDeep);
  const unique = parseUnique(text);
  if (unique !== undefined) return { value: unique, duplicates: [] };
  const duplicates: string[] = [];
  const numberLiterals = new Map<string, string>();
  let i = 0;
  const n = text.length;

  const fail = (what: string): never => {
    throw new JsonSyntaxError(i >= n ? 'Unexpected end of JSON input' : `${what} in JSON at position ${i}`);
  };
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);

  const parseString = (): string => {
    // Find the closing quote; let JSON.parse decode escapes and check validity.
    const start = i;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) break;
      else if (c < 0x20) fail(`Bad control character in string literal`);
      else i++;
    }
    if (i >= n) fail('Unterminated string');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch (err) {
      throw new JsonSyntaxError((err as Error).message);
    }
  };

  const parseValue = (path: string): unknown => {
    ws();
    if (i >= n) fail('Unexpected end');
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`Unexpected token ${text[i] ?? ''}`);
        const key = parseString();
        ws();
        if (text[i] !== ':') fail(`Unexpected token ${text[i] ?? ''}`);
        i++;
        const v = parseValue(child(path, key));
        if (seen.has(key)) duplicates.push(child(path, key));
        seen.add(key);
        // A repeated key moves nowhere: JSON.parse keeps its first position and the last value.
        setOwnKey(obj, key, v);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail(`Unexpected token ${text[i] ?? ''}`);
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(`${path}[${arr.length}]`));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail(`Unexpected token ${text[i] ?? ''}`);
      }
    }
    if (c === '"') return parseString();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) fail(`Unexpected token ${c ?? ''}`);
    const token = (m as RegExpExecArray)[0];
    i += token.length;
    if (token.includes('.') || token.includes('e') || token.includes('E')) {
      if (c !== 't' && c !== 'f') numberLiterals.set(path, token);
    }
    return JSON.parse(token) as unknown;
  };

  const value = parseValue('');
  ws();
  if (i < n) fail(`Unexpected non-whitespace character after JSON`);
  return numberLiterals.size > 0 ? { value, duplicates, numberLiterals } : { value, duplicates };
}
