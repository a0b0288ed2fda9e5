/**
 * The garbage collector's vocabulary: object identities (kube's objectReference: an owner
 * reference's coordinates plus a namespace), the resources it follows, and what it is built from.
 */
import type { KubeObject, OwnerReference } from '../../../api/meta/types.js';

/** Who an object is: apiVersion, kind, name, uid, and its namespace ("" for cluster objects). */
export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly namespace: string;
}

/** A served resource the collector follows: list, watch and delete are served. */
export interface GCResource {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** An apiVersion it is served at, for objects that do not carry theirs. */
  readonly apiVersion: string;
}

/** Finds the resource of an apiVersion/kind (the version does not matter: every version is one resource). */
export interface ResourceMapper {
  /** The resource of apiVersion/kind, or undefined when no served resource has that kind. */
  resourceFor(apiVersion: string, kind: string): GCResource | undefined;
  /** Every resource followed. */
  all(): readonly GCResource[];
}

/** Reads objects as kube's collector reads them through the API (its metadata). */
export interface ObjectLookup {
  /** The object now, or undefined when absent; throws when its resource's informer has not synced. */
  get(resource: GCResource, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Every object of a resource (the rare scans: an owner referenced across namespaces). */
  list(resource: GCResource): Promise<Iterable<KubeObject>>;
}

/** The identity of an object as its resource reports it. */
export function identityOf(obj: KubeObject, resource: GCResource): ObjectIdentity {
  return {
    apiVersion: obj.apiVersion || resource.apiVersion,
    kind: obj.kind || resource.kind,
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
    namespace: obj.metadata.namespace ?? '',
  };
}

/** kube's objectReference.String(): "[apps/v1/Deployment, namespace: ns, name: web, uid: 123]". */
export function describeIdentity(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

/** The identity an owner reference names, placed in namespace. */
export function ownerIdentity(ref: OwnerReference, namespace: string): ObjectIdentity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

/** The group of an apiVersion ("apps/v1" -> "apps", "v1" -> ""). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The GC's finalizers (also set by the generic store's delete). */
export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';
