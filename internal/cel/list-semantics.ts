/**
 * Values that compare as Kubernetes' schema-typed values do: an `x-kubernetes-list-type: set`
 * list equals another with the same elements in any order, a `map` list one with the same entries
 * by their key fields in any order (kube's unstructuredSetList / unstructuredMapList equality),
 * and objects and atomic lists holding such lists compare through them. Callers converting JSON by
 * a schema mark the lists and maps they make; the environment's == and != consult the marks and
 * leave unmarked values to CEL's own equality.
 */
import { celList, celMap, isCelList, isCelMap, type CelInput, type CelList, type CelMap, type CelValue } from '@bufbuild/cel';

/** How a list compares. */
export type ListSemantics = { readonly kind: 'atomic' } | { readonly kind: 'set' } | { readonly kind: 'map'; readonly keys: readonly string[] };

const marks = new WeakMap<object, ListSemantics | 'map'>();

/** items as a CEL list that compares as semantics says. */
export function typedList(items: readonly CelInput[], semantics: ListSemantics): CelInput {
  const list = celList(items);
  marks.set(list, semantics);
  return list as unknown as CelInput;
}

/** A schema-typed object or map, compared entry by entry with the marks of what it holds. */
export function typedMap(map: ReadonlyMap<string, CelInput>): CelInput {
  const m = celMap(map);
  marks.set(m, 'map');
  return m as unknown as CelInput;
}

type Eq = (a: CelValue, b: CelValue) => boolean;

function keyValues(v: CelValue, keys: readonly string[]): CelValue[] | undefined {
  if (!isCelMap(v)) return undefined;
  return keys.map((k) => (v.get(k) as CelValue | undefined) ?? null);
}

function listsEqual(a: CelList, b: CelList, s: ListSemantics | undefined, eq: Eq): boolean {
  if (a.size !== b.size) return false;
  const left = [...a];
  const right = [...b];
  if (!s || s.kind === 'atomic') return left.every((x, i) => eq(x, right[i]!));
  if (s.kind === 'set') return left.every((x) => right.some((y) => eq(x, y)));
  return left.every((x) => {
    const kx = keyValues(x, s.keys);
    if (!kx) return false;
    const match = right.find((y) => {
      const ky = keyValues(y, s.keys);
      return ky !== undefined && ky.every((v, i) => eq(v, kx[i]!));
    });
    return match !== undefined && eq(x, match);
  });
}

function mapsEqual(a: CelMap, b: CelMap, eq: Eq): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a.entries()) {
    const w = b.get(k);
    if (w === undefined || !eq(v as CelValue, w as CelValue)) return false;
  }
  return true;
}

/** l == r when either is marked; undefined when neither is (CEL's equality applies). */
export function typedEquals(l: CelValue, r: CelValue, plain: Eq): boolean | undefined {
  const ml = typeof l === 'object' && l !== null ? marks.get(l) : undefined;
  const mr = typeof r === 'object' && r !== null ? marks.get(r) : undefined;
  if (ml === undefined && mr === undefined) return undefined;
  const eq: Eq = (a, b) => typedEquals(a, b, plain) ?? plain(a, b);
  if (isCelList(l) && isCelList(r)) {
    const s = (ml !== 'map' ? ml : undefined) ?? (mr !== 'map' ? mr : undefined);
    return listsEqual(l, r, s, eq);
  }
  if (isCelMap(l) && isCelMap(r)) return mapsEqual(l, r, eq);
  return plain(l, r);
}

/**
 * l + r when l is a set or map list (kube's union: a set appends the elements it lacks, a map list
 * replaces entries with the same keys in place and appends new ones); undefined otherwise.
 */
export function typedConcat(l: CelValue, r: CelValue, plain: Eq): CelValue | undefined {
  const s = typeof l === 'object' && l !== null ? marks.get(l) : undefined;
  if (!s || s === 'map' || s.kind === 'atomic' || !isCelList(l) || !isCelList(r)) return undefined;
  const eq: Eq = (a, b) => typedEquals(a, b, plain) ?? plain(a, b);
  const out: CelValue[] = [...l];
  if (s.kind === 'set') {
    for (const x of r) if (!out.some((y) => eq(x, y))) out.push(x);
  } else {
    for (const x of r) {
      const kx = keyValues(x, s.keys);
      const at = kx ? out.findIndex((y) => keyValues(y, s.keys)?.every((v, i) => eq(v, kx[i]!)) === true) : -1;
      if (at >= 0) out[at] = x;
      else out.push(x);
    }
  }
  return typedList(out as CelInput[], s) as unknown as CelValue;
}
