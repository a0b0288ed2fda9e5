/**
 * Merging OpenAPI v2 fragments (a CRD's paths and definitions, or an extension API server's spec)
 * into the served document, as kube-openapi's aggregator does (MergeSpecsIgnorePathConflict...):
 * the document merged into keeps its paths (a fragment's path already there is dropped); a
 * definition or parameter of the same name and the same content is shared, one that differs is
 * renamed "<name>_v2", "<name>_v3", ... with the fragment's references rewritten.
 */
import { isDeepStrictEqual } from 'node:util';

/** What one source adds to /openapi/v2. */
export interface SwaggerFragmentInput {
  readonly paths: Record<string, unknown>;
  readonly definitions: Record<string, unknown>;
  /** Shared parameters the paths refer to as "#/parameters/<name>". */
  readonly parameters?: Record<string, unknown>;
}

/** The parts of a document a merge writes. */
export interface MergeTarget {
  paths: Record<string, unknown>;
  definitions: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

/** Rewrites every "$ref" equal to a key of renames (full ref strings) in value; returns a new value. */
function rewriteRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renames));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' ? (renames.get(v) ?? v) : rewriteRefs(v, renames);
    return out;
  }
  return value;
}

/** Names for the fragment's entries of one section that conflict with different content in target. */
function conflicts(section: Record<string, unknown>, target: Record<string, unknown>, prefix: string, renames: Map<string, string>): void {
  for (const [name, value] of Object.entries(section)) {
    if (!(name in target) || isDeepStrictEqual(target[name], value)) continue;
    let n = 2;
    while (`${name}_v${n}` in target || `${name}_v${n}` in section) n++;
    renames.set(`${prefix}${name}`, `${prefix}${name}_v${n}`);
  }
}

/** Merges fragment into target (mutating target, never fragment). */
export function mergeFragment(target: MergeTarget, fragment: SwaggerFragmentInput): void {
  const renames = new Map<string, string>();
  conflicts(fragment.definitions, target.definitions, '#/definitions/', renames);
  conflicts(fragment.parameters ?? {}, target.parameters, '#/parameters/', renames);
  const f = renames.size > 0 ? (rewriteRefs(fragment, renames) as SwaggerFragmentInput) : fragment;
  const renamed = (prefix: string, name: string): string => (renames.get(`${prefix}${name}`) ?? `${prefix}${name}`).slice(prefix.length);
  for (const [name, def] of Object.entries(f.definitions)) target.definitions[renamed('#/definitions/', name)] = def;
  for (const [name, p] of Object.entries(f.parameters ?? {})) target.parameters[renamed('#/parameters/', name)] = p;
  for (const [path, item] of Object.entries(f.paths)) if (!(path in target.paths)) target.paths[path] = item;
}

/** A copy of record with its keys in ascending order (Go writes map keys sorted). */
export function sortRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
