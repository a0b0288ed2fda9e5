/**
 * A JSON parser that also reports duplicate object keys, as kube's strict decoding does
 * (sigs.k8s.io/json): the value is what JSON.parse would give (the last duplicate wins) and each
 * repeated key is reported once per repetition with its path from the document root
 * ("spec.paused", "spec.template.spec.containers[0].imagePullPolicy").
 */

/** A parse result: the value, and the paths of keys that appeared more than once in their object. */
export interface StrictJson {
  readonly value: unknown;
  readonly duplicates: string[];
}

/** A syntax error with JSON.parse's kind of message. */
export class JsonSyntaxError extends SyntaxError {}

/** Parses text; throws JsonSyntaxError on malformed input. */
export function parseStrictJson(text: string): StrictJson {
  const duplicates: string[] = [];
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
        obj[key] = v;
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
    return JSON.parse(token) as unknown;
  };

  const value = parseValue('');
  ws();
  if (i < n) fail(`Unexpected non-whitespace character after JSON`);
  return { value, duplicates };
}
