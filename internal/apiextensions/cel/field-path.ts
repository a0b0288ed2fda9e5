/**
 * A rule's fieldPath (kube's ValidFieldPath): a JSON path of `.name` and `['name']` steps relative
 * to the rule's schema node, each naming a declared property (or any key of an additionalProperties
 * map), resolved to the field path errors are reported at ("spec.x", "[key]" for map keys).
 */
import type { JSONSchemaProps } from '../interface.js';

/** A resolved fieldPath, or kube's reason it is not valid. */
export type FieldPathResult = { readonly path: string; readonly schema: JSONSchemaProps } | { readonly error: string };

const escapes: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): string | Error {
  let err: Error | undefined;
  const out = s.replace(/\\./g, (m) => {
    const r = escapes[m[1]!];
    if (r === undefined) err = new Error(`invalid escape char ${m}`);
    return r ?? '';
  });
  return err ?? out;
}

/** Splits the path into '.', '[', ']' and the text between them (single-quoted strings kept whole). */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if ('.[]'.includes(path[i]!)) {
      out.push(path[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < path.length && !'.[]'.includes(path[j]!)) j++;
    out.push(path.slice(i, j));
    i = j;
  }
  return out;
}

/** Resolves fieldPath against schema (the rule's node). */
export function validFieldPath(fieldPath: string, schema: JSONSchemaProps): FieldPathResult {
  let path = '';
  let node = schema;
  const step = (name: string): string | undefined => {
    if (node.properties) {
      const next = node.properties[name];
      path = path === '' ? name : `${path}.${name}`;
      if (!next) return 'does not refer to a valid field';
      node = next;
      return undefined;
    }
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      path = `${path}[${name}]`;
      node = node.additionalProperties;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const toks = tokens(fieldPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '[') {
      const quoted = toks[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if (name instanceof Error) return { error: `invalid string literal: ${name.message}` };
      const err = step(name);
      if (err) return { error: err };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, schema: node };
}
