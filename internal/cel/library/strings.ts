/**
 * cel-go's strings extension (version 2, as Kubernetes enables it) on top of @bufbuild/cel's:
 * split(sep, n) follows Go's strings.SplitN (the last part keeps the rest of the string).
 */
import { CelScalar, celMethod, listType, type CelFunc } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

const { STRING, INT } = CelScalar;

function splitN(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  if (n < 0n) return sep === '' ? [...s] : s.split(sep);
  const out: string[] = [];
  let rest = s;
  while (BigInt(out.length) < n - 1n) {
    if (sep === '') {
      if (rest.length <= 1) break;
      const ch = [...rest][0]!;
      out.push(ch);
      rest = rest.slice(ch.length);
      continue;
    }
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** The strings library's functions. */
export const stringsLibrary: CelFunc[] = [
  ...strings,
  celMethod('split', STRING, [STRING, INT], listType(STRING), function (sep, n) {
    return splitN(this, sep, n);
  }),
];
