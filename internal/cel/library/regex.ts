/**
 * Kubernetes' regex library: <string>.find(regex), findAll(regex), findAll(regex, limit). RE2
 * patterns run as JavaScript regular expressions (the same syntax for what policies use; RE2's
 * leading (?flags) group becomes JS flags).
 */
import { CelScalar, celMethod, listType, type CelFunc } from '@bufbuild/cel';

const { STRING, INT } = CelScalar;
const cache = new Map<string, RegExp>();

/** The pattern as a global JS RegExp; throws cel-go's message for a bad pattern. */
export function compileRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  let source = pattern;
  let flags = 'gu';
  const m = /^\(\?([imsU]+)\)/.exec(source);
  if (m) {
    source = source.slice(m[0].length);
    for (const f of m[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
  }
  source = source.replace(/\\z/g, '$').replace(/\\A/g, '^');
  try {
    re = new RegExp(source, flags);
  } catch (err) {
    throw new Error(`error parsing regexp: ${(err as Error).message}`);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const out: string[] = [];
  const re = compileRegex(pattern);
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/** The regex library's functions. */
export const regexLibrary: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (pattern) {
    const re = compileRegex(pattern);
    re.lastIndex = 0;
    const m = re.exec(this);
    re.lastIndex = 0;
    return m ? m[0] : '';
  }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) {
    return findAll(this, pattern, -1n);
  }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, limit) {
    return findAll(this, pattern, limit);
  }),
];
