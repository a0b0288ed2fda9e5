/**
 * cel-go's optional field and index syntax (`a.?b`, `a[?k]`), which @bufbuild/cel's parser does
 * not read, brought in before parsing: the source is rewritten outside string literals to
 * `a._k8s_opt_b` and `a[_k8s_oi_(k)]`, which parse, and ast.ts turns those into calls of the
 * optional library's select and index functions. Offsets of the parsed nodes are mapped back to
 * the original source so errors point where the user wrote.
 */

/** Marks a field selected with `.?` (a prefix no Kubernetes field name has). */
export const optFieldPrefix = '_k8s_opt_';
/** Wraps the key of an index written with `[?`. */
export const optIndexFunction = '_k8s_oi_';

/** A rewritten source and where text was inserted (offsets in the rewritten text). */
export interface Preprocessed {
  readonly text: string;
  readonly inserts: readonly { readonly at: number; readonly length: number }[];
}

/** Rewrites the optional syntax; returns the source unchanged (no inserts) when there is none. */
export function preprocessOptionalSyntax(source: string): Preprocessed {
  if (!source.includes('.?') && !source.includes('[?')) return { text: source, inserts: [] };
  let out = '';
  const inserts: { at: number; length: number }[] = [];
  const brackets: boolean[] = [];
  const insert = (s: string) => {
    inserts.push({ at: out.length, length: s.length });
    out += s;
  };
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    // String literals (with r/R/b/B prefixes, triple quotes and escapes) are copied as they are.
    if (c === '"' || c === "'") {
      const raw = /[rR]/.test(source[i - 1] ?? '') || (/[bB]/.test(source[i - 1] ?? '') && /[rR]/.test(source[i - 2] ?? ''));
      const triple = source.startsWith(c.repeat(3), i);
      const end = triple ? c.repeat(3) : c;
      let j = i + end.length;
      while (j < source.length && !source.startsWith(end, j)) j += !raw && source[j] === '\\' ? 2 : 1;
      j = Math.min(source.length, j + end.length);
      out += source.slice(i, j);
      i = j;
      continue;
    }
    if (c === '.' && source[i + 1] === '?' && /[_a-zA-Z]/.test(source[i + 2] ?? '')) {
      out += '.';
      // The '?' is replaced by the prefix: one character gone, the prefix's length inserted.
      inserts.push({ at: out.length, length: optFieldPrefix.length - 1 });
      out += optFieldPrefix;
      i += 2;
      continue;
    }
    if (c === '[') {
      // `[?` is an index only after an operand; at the start of a list literal it is an optional element.
      const optional = source[i + 1] === '?' && /[\w)\]}"'`]/.test(out.trimEnd().slice(-1));
      brackets.push(optional);
      out += '[';
      if (optional) {
        inserts.push({ at: out.length, length: optIndexFunction.length });
        out += `${optIndexFunction}(`;
        i += 2;
      } else i++;
      continue;
    }
    if (c === ']') {
      if (brackets.pop()) insert(')');
      out += ']';
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return { text: out, inserts };
}

/** The offset in the original source of an offset in the rewritten text. */
export function originalOffset(p: Preprocessed, offset: number): number {
  let shift = 0;
  for (const ins of p.inserts) if (ins.at < offset) shift += Math.min(ins.length, offset - ins.at);
  return offset - shift;
}
