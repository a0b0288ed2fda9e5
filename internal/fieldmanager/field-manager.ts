/**
 * kube's default field manager (k8s.io/apimachinery managedfields/internal NewDefaultFieldManager),
 * as one class whose methods are its layers, outermost first: version check, last-applied
 * annotation upkeep and client-side-apply upgrade, skipping untracked objects, capping update
 * managers, building manager identifiers, stamping times, stripping metadata fields, and the
 * structured merge itself. Objects are plain JSON in the request's version; nothing is mutated.
 */
import { excludeSetFilter, FieldSet, type FieldFilter } from './field-set.js';
import { buildManagerIdentifier, type Managed } from './managed-fields-codec.js';
import { ConflictsError, type Conflict } from './merge/conflicts.js';
import { versionedSet, type ManagedFields } from './merge/managed-fields.js';
import { MissingVersionError, Updater, type Converter } from './merge/updater.js';
import { fieldElement } from './path-element.js';
import { ValidationErrors } from './typed/helpers.js';
import { TypedValue } from './typed/typed-value.js';
import { apiVersionOfGVK, gvkString, resolveOrDeduce, type GVK, type TypeResolver } from './type-resolver.js';
import { goJSON, isMap, type Value, type ValueMap } from './value.js';

/** kube's DefaultMaxUpdateManagers. */
export const maxUpdateManagers = 10;
/** The annotation kubectl's client-side apply keeps. */
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** A request mistake the handler should answer with 400 (kube: errors.NewBadRequest). */
export class FieldManagerBadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldManagerBadRequest';
  }
}

/** What the caller can plug in; see FieldManagerOptions in managed-fields.ts. */
export interface FieldManagerHooks {
  readonly resetFields?: ReadonlyArray<readonly string[]>;
  readonly convert?: (obj: ValueMap, apiVersion: string) => ValueMap | undefined;
  readonly default?: (obj: ValueMap) => ValueMap;
}

const stripSet = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

function metadataOf(obj: ValueMap | undefined): ValueMap {
  const m = obj?.['metadata'];
  return isMap(m) ? m : {};
}

/** A copy of obj without metadata.managedFields. */
export function withoutManagedFields(obj: ValueMap): ValueMap {
  const meta = metadataOf(obj);
  if (!('managedFields' in meta)) return obj;
  const { managedFields: _drop, ...rest } = meta;
  return { ...obj, metadata: rest };
}

function objectGVKNN(obj: ValueMap, gvk: GVK): string {
  const meta = metadataOf(obj);
  return `${typeof meta['namespace'] === 'string' ? meta['namespace'] : ''}/${typeof meta['name'] === 'string' ? meta['name'] : ''}; ${gvkString(gvk)}`;
}

/** The field manager of one kind at one endpoint (resource or subresource) in one version. */
export class KubeFieldManager {
  private readonly apiVersion: string;
  private readonly updater: Updater;

  constructor(
    private readonly resolver: TypeResolver,
    private readonly gvk: GVK,
    private readonly subresource: string,
    private readonly now: string,
    private readonly hooks: FieldManagerHooks = {},
  ) {
    this.apiVersion = apiVersionOfGVK(gvk);
    const ignore = new Map<string, FieldFilter>();
    if (hooks.resetFields && hooks.resetFields.length > 0) ignore.set(this.apiVersion, excludeSetFilter(FieldSet.of(...hooks.resetFields.map((p) => p.map(fieldElement)))));
    this.updater = new Updater({ converter: this.converter(), ignoreFilter: ignore });
  }

  private gvkAt(version: string): GVK {
    return { ...this.gvk, version: version.includes('/') ? version.slice(version.indexOf('/') + 1) : version };
  }

  /** Types an object of this manager's kind (request version by default) as given. */
  typed(obj: Value, allowDuplicates: boolean, version = this.apiVersion): TypedValue {
    const { schema, typeRef } = resolveOrDeduce(this.resolver, this.gvkAt(version));
    return TypedValue.of(schema, typeRef, obj, { allowDuplicates });
  }

  /** Types a stored or written object as kube sees it after typed decoding (zero-value fields filled in). */
  typedObject(obj: ValueMap, allowDuplicates: boolean, version = this.apiVersion): TypedValue {
    return this.typed(this.resolver.normalize(this.gvkAt(version), withoutManagedFields(obj)), allowDuplicates, version);
  }

  private converter(): Converter {
    const group = this.gvk.group;
    const versionOf = (tv: TypedValue): string | undefined => (isMap(tv.value) && typeof tv.value['apiVersion'] === 'string' ? tv.value['apiVersion'] : undefined);
    return {
      convert: (tv, version) => {
        const target = { group, version: version.includes('/') ? version.slice(version.indexOf('/') + 1) : version, kind: this.gvk.kind };
        if (apiVersionOfGVK(target) !== version) throw new MissingVersionError(version);
        const from = versionOf(tv) ?? this.apiVersion;
        if (from === version) return tv;
        const targetType = this.resolver.typeOf(target);
        const fromType = this.resolver.typeOf({ ...target, version: from.slice(from.indexOf('/') + 1) });
        if (!targetType && fromType) throw new MissingVersionError(version);
        if (!isMap(tv.value)) return this.retype(tv.value, version);
        const converted = this.hooks.convert ? this.hooks.convert(tv.value, version) : { ...tv.value, apiVersion: version };
        if (!converted) throw new MissingVersionError(version);
        try {
          return this.typedObject(converted, true, version);
        } catch (err) {
          // Without a real converter, a version whose schema rejects the same JSON counts as unserved.
          if (!this.hooks.convert && err instanceof ValidationErrors) throw new MissingVersionError(version);
          throw err;
        }
      },
    };
  }

  private retype(value: Value, version: string): TypedValue {
    return this.typed(value, true, version);
  }

  // ---- Update layers ----

  /** SkipNonApplied → CapManagers → BuildManagerInfo → ManagedFieldsUpdater → StripMeta → StructuredMerge (Update). */
  update(live: ValueMap, newObj: ValueMap, managed: Managed, manager: string): Managed {
    if (managed.fields.size === 0) {
      // Tracking starts on create (kube's probability is 1) and never on an update of an untracked object.
      const uid = metadataOf(live)['uid'];
      if (typeof uid === 'string' && uid !== '') return managed;
    }
    return this.updateTracked(live, newObj, managed, manager);
  }

  private updateTracked(live: ValueMap, newObj: ValueMap, managed: Managed, manager: string): Managed {
    const id = buildManagerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: this.apiVersion, subresource: this.subresource });
    const self = 'current-operation';
    const out = this.structuredUpdate(live, newObj, managed, self);
    this.strip(out.fields, self);
    const vs = out.fields.get(self);
    if (vs) {
      out.fields.delete(self);
      const previous = out.fields.get(id);
      out.fields.set(id, previous ? versionedSet(vs.set.union(previous.set), vs.apiVersion, vs.applied) : vs);
      out.times.set(id, this.now);
    }
    return this.capUpdateManagers(out);
  }

  private structuredUpdate(live: ValueMap, newObj: ValueMap, managed: Managed, manager: string): Managed {
    let newTyped: TypedValue;
    let liveTyped: TypedValue;
    try {
      newTyped = this.typedObject(newObj, true);
    } catch (err) {
      throw new Error(`failed to convert new object (${objectGVKNN(newObj, this.gvk)}) to smd typed: ${(err as Error).message}`);
    }
    try {
      liveTyped = this.typedObject(live, true);
    } catch (err) {
      throw new Error(`failed to convert live object (${objectGVKNN(live, this.gvk)}) to smd typed: ${(err as Error).message}`);
    }
    const fields = this.updater.updateFields(liveTyped, newTyped, this.apiVersion, managed.fields, manager);
    return { fields, times: new Map(managed.times) };
  }

  private strip(fields: ManagedFields, manager: string): void {
    const vs = fields.get(manager);
    if (!vs) return;
    const set = vs.set.difference(stripSet);
    if (set.empty()) fields.delete(manager);
    else fields.set(manager, versionedSet(set, vs.apiVersion, vs.applied));
  }

  /** capManagersManager: merges the oldest update entries into per-version "ancient-changes" entries. */
  private capUpdateManagers(managed: Managed): Managed {
    const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
    if (updaters.length <= maxUpdateManagers) return managed;
    const secs = (id: string) => {
      const t = managed.times.get(id);
      return t ? Math.floor(Date.parse(t) / 1000) : 0;
    };
    updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
    const firstOfVersion = new Map<string, string>();
    for (let i = 0, length = updaters.length; i < updaters.length && length > maxUpdateManagers; i++) {
      const id = updaters[i]!;
      const vs = managed.fields.get(id)!;
      const time = managed.times.get(id);
      const bucket = buildManagerIdentifier({ manager: 'ancient-changes', operation: 'Update', apiVersion: vs.apiVersion });
      const first = firstOfVersion.get(vs.apiVersion);
      if (first === undefined) {
        firstOfVersion.set(vs.apiVersion, id);
        continue;
      }
      if (!managed.fields.has(bucket)) {
        const s = managed.fields.get(first)!;
        managed.fields.delete(first);
        managed.fields.set(bucket, s);
      }
      managed.fields.set(bucket, versionedSet(vs.set.union(managed.fields.get(bucket)!.set), vs.apiVersion, vs.applied));
      managed.fields.delete(id);
      length--;
      managed.times.set(bucket, time);
    }
    return managed;
  }

  // ---- Apply layers ----

  /** VersionCheck → LastAppliedUpdater → LastAppliedManager → SkipNonApplied → … → StructuredMerge (Apply). Returns the object (undefined: unchanged) and managers. */
  apply(live: ValueMap, applied: ValueMap, managed: Managed, manager: string, force: boolean): { object: ValueMap; managed: Managed } {
    if (applied['apiVersion'] !== this.apiVersion || applied['kind'] !== this.gvk.kind) {
      const av = typeof applied['apiVersion'] === 'string' ? applied['apiVersion'] : '';
      const slash = av.indexOf('/');
      const got = { group: slash < 0 ? '' : av.slice(0, slash), version: slash < 0 ? av : av.slice(slash + 1), kind: typeof applied['kind'] === 'string' ? applied['kind'] : '' };
      throw new FieldManagerBadRequest(`invalid object type: ${gvkString(got)}`);
    }
    const res = this.applyUpgradingLastApplied(live, applied, managed, manager, force);
    if (manager === 'kubectl' && hasLastApplied(res.object)) {
      const meta = metadataOf(applied);
      const annotations = isMap(meta['annotations']) ? { ...meta['annotations'] } : undefined;
      if (annotations) delete annotations[lastAppliedAnnotation];
      const copy: ValueMap = { ...applied, metadata: annotations ? { ...meta, annotations } : withoutKey(meta, 'annotations') };
      const resMeta = metadataOf(res.object);
      const resAnnotations = isMap(resMeta['annotations']) ? resMeta['annotations'] : {};
      const next: ValueMap = { ...resAnnotations, [lastAppliedAnnotation]: `${goJSON(copy)}\n` };
      // kube drops the annotation rather than exceed the 256 KiB annotation budget.
      if (annotationsSize(next) > 256 * 1024) delete next[lastAppliedAnnotation];
      res.object = { ...res.object, metadata: { ...resMeta, annotations: next } };
    }
    return res;
  }

  private applyUpgradingLastApplied(live: ValueMap, applied: ValueMap, managed: Managed, manager: string, force: boolean): { object: ValueMap; managed: Managed } {
    try {
      return this.applySkipping(live, applied, managed, manager, force);
    } catch (err) {
      if (manager !== 'kubectl' || !(err instanceof ConflictsError)) throw err;
      let allowed: FieldSet;
      try {
        allowed = this.allowedConflictsFromLastApplied(live);
      } catch {
        throw err;
      }
      const rest: Conflict[] = err.conflicts.filter((c) => !allowed.has(c.path));
      if (rest.length > 0) throw new ConflictsError(rest);
      return this.applySkipping(live, applied, managed, manager, true);
    }
  }

  private allowedConflictsFromLastApplied(live: ValueMap): FieldSet {
    const annotations = metadataOf(live)['annotations'];
    const lastApplied = isMap(annotations) ? annotations[lastAppliedAnnotation] : undefined;
    if (typeof lastApplied !== 'string' || lastApplied === '') throw new Error('no last applied annotation');
    const liveTyped = this.typedObject(live, false);
    const lastObj = JSON.parse(lastApplied) as Value;
    if (!isMap(lastObj) || lastObj['apiVersion'] !== this.apiVersion) throw new Error('expected version of last applied to match live object');
    const lastTyped = this.typed(lastObj, false);
    const c = lastTyped.compare(liveTyped);
    return lastTyped.toFieldSet().difference(c.modified).difference(c.added).difference(c.removed);
  }

  private applySkipping(live: ValueMap, applied: ValueMap, managed: Managed, manager: string, force: boolean): { object: ValueMap; managed: Managed } {
    if (managed.fields.size === 0) {
      // Fields set before the first apply belong to "before-first-apply".
      managed = this.updateTracked(this.resolver.zeroObject(this.gvk), live, managed, 'before-first-apply');
    }
    const id = buildManagerIdentifier({ manager: manager || 'unknown', operation: 'Apply', apiVersion: this.apiVersion, subresource: this.subresource });
    const res = this.structuredApply(live, applied, managed, id, force);
    this.strip(res.managed.fields, id);
    if (res.object !== undefined) {
      res.managed.times.set(id, this.now);
      return { object: res.object, managed: res.managed };
    }
    return { object: withoutManagedFields(live), managed: res.managed };
  }

  private structuredApply(live: ValueMap, applied: ValueMap, managed: Managed, manager: string, force: boolean): { object: ValueMap | undefined; managed: Managed } {
    if (metadataOf(applied)['managedFields'] !== undefined) throw new FieldManagerBadRequest('metadata.managedFields must be nil');
    let appliedTyped: TypedValue;
    let liveTyped: TypedValue;
    try {
      appliedTyped = this.typed(applied, false);
    } catch (err) {
      throw new FieldManagerBadRequest(`failed to create typed patch object (${objectGVKNN(applied, this.gvk)}): ${(err as Error).message}`);
    }
    try {
      liveTyped = this.typedObject(live, true);
    } catch (err) {
      throw new Error(`failed to create typed live object (${objectGVKNN(live, this.gvk)}): ${(err as Error).message}`);
    }
    const res = this.updater.apply(liveTyped, appliedTyped, this.apiVersion, managed.fields, manager, force);
    const out: Managed = { fields: res.managers, times: new Map(managed.times) };
    if (!res.object) return { object: undefined, managed: out };
    const value = res.object.value;
    if (!isMap(value)) throw new Error('failed to convert value to unstructured');
    return { object: this.hooks.default ? this.hooks.default(value) : value, managed: out };
  }
}

function withoutKey(m: ValueMap, key: string): ValueMap {
  const { [key]: _drop, ...rest } = m;
  return rest;
}

function annotationsSize(a: ValueMap): number {
  let n = 0;
  for (const [k, v] of Object.entries(a)) n += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  return n;
}

function hasLastApplied(obj: ValueMap): boolean {
  const annotations = metadataOf(obj)['annotations'];
  const v = isMap(annotations) ? annotations[lastAppliedAnnotation] : undefined;
  return typeof v === 'string' && v.length > 0;
}
