/**
 * kube's $(VAR) expansion (third_party/forked/golang/expansion) as kubelet applies it to env values,
 * command, args and subPathExpr: $(NAME) becomes NAME's value when NAME is defined and stays as
 * written otherwise; $$ escapes a dollar; any other $ is kept.
 */

/** Expands $(VAR) references in input with lookup (undefined: keep the reference). */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        // An unclosed reference is kept as written.
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, close);
      const value = name === '' ? undefined : lookup(name);
      out += value ?? `$(${name})`;
      i = close;
      continue;
    }
    out += ch;
  }
  return out;
}

/** A lookup over a map of defined variables. */
export function mappingOf(vars: ReadonlyMap<string, string>): (name: string) => string | undefined {
  return (name) => vars.get(name);
}
