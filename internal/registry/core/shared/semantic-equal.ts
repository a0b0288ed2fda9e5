/**
 * Equality with apimachinery's Semantic.DeepEqual meaning over JSON values: a value that is absent,
 * null, an empty string, false, an empty list or an empty object equals its absence, because in Go
 * each of them decodes to the same zero value (nil and empty slices and maps compare equal).
 */
import { setOwnKey } from '../../../collections/own-key.js';
import { stableStringify } from '../../generic/object-meta.js';

function normalize(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === false) return undefined;
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    // Positions matter in a list, so an emptied element stays as a placeholder.
    return v.map((e) => normalize(e) ?? null);
  }
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) {
      const n = normalize(e);
      if (n !== undefined) setOwnKey(out, k, n);
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

/** True when a and b are equal once Go zero values are treated as absent. Never mutates. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return stableStringify(normalize(a)) === stableStringify(normalize(b));
}
