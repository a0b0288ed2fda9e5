/**
 * The Go type names kube's %T prints for JSON values decoded into interface{}, which conversion
 * messages about malformed converted objects quote.
 */

/** The Go type of a decoded JSON value. */
export function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return v === Math.trunc(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
