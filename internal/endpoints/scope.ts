/**
 * ResourceScope: everything a handler needs to serve one resource or subresource in one group
 * version: its storage, names and kinds from the generated API data, verbs, selectable fields,
 * and the conversion between the stored form and this version.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { apiVersionOf } from '../../api/meta/types.js';
import type { GroupResource } from '../apierrors/factories.js';
import type { SelectableFields } from '../registry/generic/strategy.js';
import type { RestStorage } from '../registry/interface.js';
import type { VersionConversion } from '../registry/registration.js';
import type { TypeResolver } from '../fieldmanager/interface.js';
import type { TablePrinter } from './negotiation/printers/types.js';

/**
 * What a custom resource's endpoint brings that built-in ones take from the generated API data:
 * decoding by its schema, the server-side apply type of its version, and its deprecation warning.
 */
export interface CustomResourceHooks {
  /**
   * Prunes what the version's schema does not know from a decoded body or patch result (kube's
   * pruning; mutates obj) and returns the paths of what it removed in checkDecode's unknownFields
   * form ("spec.foo", "spec.items[0].bar"), which fieldValidation Strict refuses and Warn reports.
   */
  prune(obj: KubeObject): readonly string[];
  /** The structured-merge-diff type of the version (list-type, list-map-keys, map-type) for managed fields and apply. */
  readonly typeResolver: TypeResolver;
  /** kube's warning for a deprecated version (deprecationWarning, or its default), added to every answer of the version. */
  readonly deprecationWarning?: string;
}

/** One served (sub)resource in one group version. */
export interface ResourceScope {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** "" for the resource itself. */
  readonly subresource: string;
  readonly namespaced: boolean;
  /** The kind of the objects this endpoint reads and writes (Scale for scale). */
  readonly kind: string;
  /** The apiVersion of those objects ("autoscaling/v1" for scale). */
  readonly apiVersion: string;
  /** The kind of lists of the resource (<Kind>List). */
  readonly listKind: string;
  readonly storage: RestStorage;
  /** The verbs discovery reports for this endpoint. */
  readonly verbs: ReadonlySet<string>;
  readonly selectableFields: SelectableFields;
  /** The apiVersion and kind objects are stored as (the hub version). */
  readonly stored: { readonly apiVersion: string; readonly kind: string };
  /** Stored form <-> this version; absent when they are the same. Not applied to Scale. */
  readonly conversion?: VersionConversion;
  /** Objects and lists of this endpoint have Protobuf messages (built-in kinds do; custom resources will not). */
  readonly protobuf: boolean;
  /** The resource has a status subresource (main-resource writes then own no status fields). */
  readonly hasStatusSubresource: boolean;
  /** Defaulting of decoded request objects of this endpoint's kind (absent for Scale). */
  readonly defaulter?: (obj: KubeObject) => void;
  /** For errors and Status details: the resource and its group. */
  readonly gr: GroupResource;
  /** The endpoint's own Table printer (custom resources' additionalPrinterColumns); else the built-in printer of group/version/resource, if any. */
  readonly printer?: TablePrinter;
  /** Present for custom resources (see CustomResourceHooks). */
  readonly custom?: CustomResourceHooks;
}

/** The object as this endpoint serves it: converted, with apiVersion and kind set first. Does not mutate obj. */
export function toExternal(scope: ResourceScope, obj: KubeObject): KubeObject {
  const converted = scope.conversion ? scope.conversion.toExternal(obj) : obj;
  const { apiVersion: _a, kind: _k, ...rest } = converted;
  return { kind: scope.kind, apiVersion: scope.apiVersion, ...rest } as KubeObject;
}

/** The object as stored: converted from this version to the stored form. Does not mutate obj. */
export function toInternal(scope: ResourceScope, obj: KubeObject): KubeObject {
  if (!scope.conversion) return obj;
  const { apiVersion: _a, kind: _k, ...rest } = scope.conversion.toInternal(obj);
  return { kind: scope.stored.kind, apiVersion: scope.stored.apiVersion, ...rest } as KubeObject;
}

/** apiVersion for a group and version. */
export { apiVersionOf };
