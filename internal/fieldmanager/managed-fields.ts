/**
 * The kube layer of server-side apply (kube's FieldManager.Update/UpdateNoErrors and
 * FieldManager.Apply): what the create, update and patch flows call to keep
 * metadata.managedFields, and to merge an apply configuration into the live object.
 * Objects are plain JSON in the request's version; inputs are never mutated.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { newBadRequest } from '../apierrors/factories.js';
import { StatusError } from '../apierrors/status-error.js';
import { FieldManagerBadRequest, KubeFieldManager, withoutManagedFields } from './field-manager.js';
import type { ApplyConflict, FieldManagerOptions, GVK, ManagedFieldsEntry, TypeResolver } from './interface.js';
import { decodeManagedFields, emptyManaged, encodeManagedFields, isResetManagedFields, parseManagerIdentifier, printManager, rfc3339, type Managed } from './managed-fields-codec.js';
import { conflictsMessage, ConflictsError } from './merge/conflicts.js';
import { pathToString } from './path-element.js';
import { apiVersionOfGVK } from './type-resolver.js';
import { isMap, type ValueMap } from './value.js';

export type { ApplyConflict, FieldManagerOptions, ManagedFieldsEntry } from './interface.js';
export { typeResolverForBuiltins, deducedTypeResolver, type GVK, type TypeResolver } from './type-resolver.js';
export { managerFromUserAgent, managerOrUserAgent } from './user-agent.js';

/** The 409 of an apply that would change fields other managers own (reason Conflict, causes FieldManagerConflict). */
export class ApplyConflictError extends StatusError {
  readonly conflicts: ApplyConflict[];

  constructor(err: ConflictsError) {
    const causes = err.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathToString(c.path) }));
    const n = err.conflicts.length;
    const message = n === 1 ? `Apply failed with 1 conflict: ${conflictsMessage(err.conflicts, printManager)}` : `Apply failed with ${n} conflicts: ${conflictsMessage(err.conflicts, printManager)}`;
    super(409, 'Conflict', message, { causes });
    this.name = 'ApplyConflictError';
    this.conflicts = err.conflicts.map((c) => ({ manager: parseManagerIdentifier(c.manager)?.manager ?? c.manager, field: pathToString(c.path) }));
  }
}

function hooks(options: FieldManagerOptions | undefined) {
  return {
    ...(options?.resetFields ? { resetFields: options.resetFields } : {}),
    ...(options?.convert ? { convert: options.convert as unknown as (o: ValueMap, v: string) => ValueMap | undefined } : {}),
    ...(options?.default ? { default: options.default as unknown as (o: ValueMap) => ValueMap } : {}),
  };
}

function withManagedFields(obj: ValueMap, entries: ManagedFieldsEntry[] | undefined): KubeObject {
  const base = withoutManagedFields(obj);
  const meta = isMap(base['metadata']) ? base['metadata'] : {};
  return { ...base, metadata: entries ? { ...meta, managedFields: entries as unknown as ValueMap[] } : meta } as unknown as KubeObject;
}

function safeDecode(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries);
  } catch {
    return emptyManaged();
  }
}

/**
 * A non-apply write (create, PUT, JSON/merge/strategic patch): returns newObj with
 * metadata.managedFields updated for manager (kube's FieldManager.UpdateNoErrors). old is
 * undefined on create. managedFields sent in newObj replace the live ones (`[]` resets them); none
 * sent keeps the live ones; on a subresource the live ones always win. Never throws: if the
 * objects cannot be typed, newObj keeps the live managedFields, as kube does.
 */
export function updateManagedFields(resolver: TypeResolver, gvk: GVK, old: KubeObject | undefined, newObj: KubeObject, manager: string, subresource: string, now: Date, options?: FieldManagerOptions): KubeObject {
  const fm = new KubeFieldManager(resolver, gvk, subresource, rfc3339(now), hooks(options));
  const live = (old as unknown as ValueMap | undefined) ?? resolver.zeroObject(gvk);
  const incoming = newObj as unknown as ValueMap;
  const liveEntries = isMap(live['metadata']) ? live['metadata']['managedFields'] : undefined;
  const sentEntries = isMap(incoming['metadata']) ? incoming['metadata']['managedFields'] : undefined;
  let managed: Managed;
  if (subresource !== '') managed = safeDecode(liveEntries);
  else if (isResetManagedFields(sentEntries)) managed = emptyManaged();
  else {
    let sent: Managed | undefined;
    try {
      sent = decodeManagedFields(sentEntries);
    } catch {
      sent = undefined;
    }
    managed = sent && sent.fields.size > 0 ? sent : safeDecode(liveEntries);
  }
  try {
    const out = fm.update(live, withoutManagedFields(incoming), managed, manager);
    return withManagedFields(incoming, encodeManagedFields(out));
  } catch {
    const kept = Array.isArray(liveEntries) ? (liveEntries as unknown as ManagedFieldsEntry[]) : undefined;
    return withManagedFields(incoming, kept);
  }
}

/**
 * Server-side apply (kube's FieldManager.Apply): merges applied into live (undefined when the
 * object does not exist yet: the result is the object to create) and returns it with its
 * managedFields. Throws ApplyConflictError (409) on conflicts unless force, and a 400 StatusError
 * when the configuration is of another kind or version, carries managedFields, or does not fit
 * the schema (duplicate list keys, wrong types, undeclared fields).
 */
export function applyObject(resolver: TypeResolver, gvk: GVK, live: KubeObject | undefined, applied: KubeObject, manager: string, force: boolean, subresource: string, now: Date, options?: FieldManagerOptions): KubeObject {
  const fm = new KubeFieldManager(resolver, gvk, subresource, rfc3339(now), hooks(options));
  const liveObj: ValueMap = (live as unknown as ValueMap | undefined) ?? { apiVersion: apiVersionOfGVK(gvk), kind: gvk.kind, metadata: {} };
  const liveEntries = isMap(liveObj['metadata']) ? liveObj['metadata']['managedFields'] : undefined;
  let managed: Managed;
  try {
    managed = decodeManagedFields(liveEntries);
  } catch (err) {
    throw new Error(`failed to decode managed fields: ${(err as Error).message}`);
  }
  try {
    const res = fm.apply(liveObj, applied as unknown as ValueMap, managed, manager, force);
    return withManagedFields(res.object, encodeManagedFields(res.managed));
  } catch (err) {
    if (err instanceof ConflictsError) throw new ApplyConflictError(err);
    if (err instanceof FieldManagerBadRequest) throw newBadRequest(err.message);
    throw err;
  }
}
