/**
 * A resource module built from a declarative definition: one GenericStore under kube's key
 * prefix, shared by every group version the resource is served in, with its status, scale and
 * other plain-storage subresources. Versions other than the storage version convert through a
 * VersionConversion; objects are stored with the storage version's apiVersion, as kube stores them.
 */
import { apiVersionOf } from '../../../api/meta/types.js';
import type { KubeObject } from '../../../api/meta/types.js';
import { GenericStore, type StoreSettings } from '../generic/store.js';
import { ScaleStore, type ScaleMapping } from '../generic/scale-store.js';
import { StatusStore, defaultStatusStrategy } from '../generic/status-store.js';
import type { StoreHooks } from '../generic/hooks.js';
import type { SelectableFields, StatusStrategy, Strategy } from '../generic/strategy.js';
import type { RestStorage } from '../interface.js';
import type { ResourceModule, ResourceRegistration, VersionConversion } from '../registration.js';

/** One group version a resource is served in. */
export interface ServedVersion {
  readonly version: string;
  /** Stored form <-> this version; absent for the storage version itself. */
  readonly conversion?: VersionConversion;
  /** kube's SetDefaults for this version, applied to decoded request objects. */
  readonly defaulter?: (obj: KubeObject) => void;
  /** Field selectors this version accepts, when they differ from the strategy's. */
  readonly selectableFields?: SelectableFields;
}

/** Everything that makes up a resource. */
export interface ResourceDefinition {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  /** The key prefix under --etcd-prefix, as kube-apiserver lays it out (e.g. "/controllers"). */
  readonly keyPrefix: string;
  /** The version objects are stored in (kube's storage version in 1.33). */
  readonly storageVersion: string;
  readonly strategy: Strategy;
  /** Served versions; each one other than storageVersion needs a conversion. */
  readonly versions: readonly ServedVersion[];
  /** The status subresource: true for the generic rule (only status changes), or its own strategy. */
  readonly status?: true | StatusStrategy;
  /** The scale subresource's mapping onto the object. */
  readonly scale?: ScaleMapping;
  /** Further plain-storage subresources built over the store (certificatesigningrequests/approval). */
  readonly subresources?: (store: GenericStore) => Record<string, RestStorage>;
  readonly hooks?: StoreHooks;
  /** Wraps the main resource's storage (kube's per-resource REST overrides, such as the Job delete warning). */
  readonly decorateMain?: (store: GenericStore) => RestStorage;
}

/** Builds the registrations of a definition over one shared store. Throws on an inconsistent definition. */
export function buildRegistrations(def: ResourceDefinition, store: GenericStore): ResourceRegistration[] {
  const subresources: Record<string, RestStorage> = {};
  if (def.status) subresources.status = new StatusStore(store, def.status === true ? defaultStatusStrategy : def.status);
  if (def.scale) subresources.scale = new ScaleStore(store, def.scale);
  Object.assign(subresources, def.subresources?.(store) ?? {});
  const storedAs = { apiVersion: apiVersionOf(def.group, def.storageVersion), kind: def.kind };
  const main = def.decorateMain ? def.decorateMain(store) : store;
  return def.versions.map((v) => {
    if (v.version !== def.storageVersion && !v.conversion) {
      throw new Error(`${def.group}/${v.version} ${def.resource}: a version other than the storage version needs a conversion`);
    }
    const conversion = v.version === def.storageVersion ? undefined : v.conversion;
    return {
      group: def.group,
      version: v.version,
      resource: def.resource,
      namespaced: def.strategy.namespaced,
      main,
      subresources,
      selectableFields: v.selectableFields ?? def.strategy.selectableFields,
      ...(conversion ? { conversion, storedAs } : {}),
      ...(v.defaulter ? { defaulter: v.defaulter } : {}),
    };
  });
}

/** The store of a definition over the given storage. */
export function storeFor(def: ResourceDefinition, storage: ConstructorParameters<typeof GenericStore>[2], settings?: StoreSettings): GenericStore {
  return new GenericStore(
    { group: def.group, resource: def.resource, kind: def.kind, keyPrefix: def.keyPrefix },
    def.strategy,
    storage,
    def.hooks ?? {},
    settings ?? {},
  );
}

/** The resource module of a definition. */
export function defineResourceModule(def: ResourceDefinition): ResourceModule {
  return (deps) => buildRegistrations(def, storeFor(def, deps.storage, deps.storeSettings));
}
