/**
 * metadata.managedFields on the wire and in memory (k8s.io/apimachinery managedfields/internal
 * managedfields.go): entries decode into managers keyed by an identifier (the entry's manager,
 * operation, apiVersion for updates, and subresource, as JSON) with their timestamps; encoding
 * writes one entry per manager, sorted as kube sorts them (operation, then time, manager,
 * apiVersion, subresource).
 */
import { FieldSet } from './field-set.js';
import type { ManagedFieldsEntry } from './interface.js';
import { fieldsV1ToSet, setToFieldsV1, type FieldsV1 } from './fields-v1.js';
import { versionedSet, type ManagedFields } from './merge/managed-fields.js';
import { compareStrings, goJSONString, goQuote } from './value.js';

/** Managers with their sets and the time each last changed (RFC 3339, seconds). */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string | undefined>;
}

/** An empty Managed. */
export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** The parts of an entry that identify its manager. */
export interface ManagerIdentity {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
}

// Identifiers repeat from write to write (the same few managers), so building one and reading
// one back are remembered; a busy server sees a handful, a cap keeps a hostile mix bounded.
const memoLimit = 4096;
const built = new Map<string, string>();
const parsed = new Map<string, Readonly<ManagerIdentity> | undefined>();

function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= memoLimit) memo.clear();
  memo.set(key, value);
  return value;
}

/** BuildManagerIdentifier: the entry as Go marshals it without fields, time and (for appliers) apiVersion. */
export function buildManagerIdentifier(e: ManagerIdentity): string {
  const key = `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.apiVersion ?? ''}\u0000${e.subresource ?? ''}`;
  const known = built.get(key);
  if (known !== undefined) return known;
  const parts: string[] = [];
  if (e.manager) parts.push(`"manager":${goJSONString(e.manager)}`);
  if (e.operation) parts.push(`"operation":${goJSONString(e.operation)}`);
  if (e.apiVersion && e.operation !== 'Apply') parts.push(`"apiVersion":${goJSONString(e.apiVersion)}`);
  if (e.subresource) parts.push(`"subresource":${goJSONString(e.subresource)}`);
  return remember(built, key, `{${parts.join(',')}}`);
}

/** The identity encoded in a manager identifier (empty when it is not one); shared and frozen: callers read it only. */
export function parseManagerIdentifier(id: string): Readonly<ManagerIdentity> | undefined {
  if (parsed.has(id)) return parsed.get(id);
  let out: Readonly<ManagerIdentity> | undefined;
  try {
    const v = JSON.parse(id) as unknown;
    out = typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.freeze(v as ManagerIdentity) : undefined;
  } catch {
    out = undefined;
  }
  return remember(parsed, id, out);
}

/** printManager: how conflict messages name a manager (`"m"`, `"m" using apps/v1`, `"m" with subresource "status"`). */
export function printManager(id: string): string {
  const e = parseManagerIdentifier(id);
  if (!e) return goQuote(id);
  let s = goQuote(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${goQuote(e.subresource)}`;
  if (e.operation === 'Update') s = `${s} using ${e.apiVersion ?? ''}`;
  return s;
}

/** DecodeManagedFields: throws on an entry kube would reject (bad operation, empty apiVersion, missing or unknown fieldsType, undecodable fields). */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  entries.forEach((raw, i) => {
    const e = (raw ?? {}) as Record<string, unknown>;
    if (e['operation'] !== 'Apply' && e['operation'] !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (typeof e['apiVersion'] !== 'string' || e['apiVersion'].length < 1) throw new Error('apiVersion must not be empty');
    if (e['fieldsType'] === undefined || e['fieldsType'] === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e['fieldsType'] !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e['fieldsType'])} in managed fields entry ${i}`);
    const id = buildManagerIdentifier({
      manager: typeof e['manager'] === 'string' ? e['manager'] : '',
      operation: e['operation'],
      apiVersion: e['apiVersion'],
      subresource: typeof e['subresource'] === 'string' ? e['subresource'] : '',
    });
    let set: FieldSet;
    try {
      set = e['fieldsV1'] === undefined || e['fieldsV1'] === null ? new FieldSet() : fieldsV1ToSet(e['fieldsV1']);
    } catch (err) {
      throw new Error(`error decoding versioned set: error decoding set: ${(err as Error).message}`);
    }
    managed.fields.set(id, versionedSet(set, e['apiVersion'], e['operation'] === 'Apply'));
    managed.times.set(id, typeof e['time'] === 'string' ? e['time'] : undefined);
  });
  return managed;
}

function seconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** encodeManagedFields: one entry per manager in kube's order; undefined (no managedFields) when there are none. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const ident = parseManagerIdentifier(id) ?? {};
    const entry: ManagedFieldsEntry = {
      manager: ident.manager ?? '',
      operation: vs.applied ? 'Apply' : ((ident.operation as 'Apply' | 'Update' | undefined) ?? 'Update'),
      apiVersion: vs.apiVersion,
      fieldsType: 'FieldsV1',
      fieldsV1: {},
    };
    const time = managed.times.get(id);
    // Go's field order: manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource.
    const ordered: ManagedFieldsEntry = { manager: entry.manager, operation: entry.operation, apiVersion: entry.apiVersion, ...(time ? { time } : {}), fieldsType: 'FieldsV1', fieldsV1: setToFieldsV1(vs.set) as FieldsV1 };
    if (ident.subresource) ordered.subresource = ident.subresource;
    out.push(ordered);
  }
  out.sort((p, q) => {
    if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
    const ps = seconds(p.time);
    const qs = seconds(q.time);
    if (ps !== qs) return ps < qs ? -1 : 1;
    if (p.manager !== q.manager) return compareStrings(p.manager, q.manager);
    if (p.apiVersion !== q.apiVersion) return compareStrings(p.apiVersion, q.apiVersion);
    return compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
  return out;
}

/** isResetManagedFields: the request sent `managedFields: []` (or one empty entry) to clear them. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  if (entries.length === 1) {
    const e = entries[0] as Record<string, unknown> | null;
    return e !== null && typeof e === 'object' && Object.values(e).every((v) => v === undefined || v === '' || v === null);
  }
  return false;
}

let lastSecond = Number.NaN;
let lastText = '';

/** Formats a time as metav1.Time does on the wire (RFC 3339, UTC, seconds). */
export function rfc3339(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}
