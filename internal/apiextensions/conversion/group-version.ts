/**
 * apiVersion strings as kube's schema package prints them in conversion messages:
 * GroupVersion "group/version" (just "version" for the core group) and GroupVersionKind
 * "group/version, Kind=Kind".
 */

/** A parsed apiVersion (schema.ParseGroupVersion; "" is the empty group version). */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** Parses apiVersion as kube does: "v1" is the core group, "g/v" a named group. */
export function parseGroupVersion(apiVersion: unknown): GroupVersion {
  if (typeof apiVersion !== 'string' || apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** schema.GroupVersion.String(). */
export function groupVersionString(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** schema.GroupVersionKind.String() of an object's apiVersion and kind. */
export function groupVersionKindString(apiVersion: unknown, kind: unknown): string {
  const gv = parseGroupVersion(apiVersion);
  return `${gv.group}/${gv.version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}
