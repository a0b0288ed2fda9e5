/**
 * Which OpenAPI rules kube-apiserver really enforces on built-in kinds. Its handwritten validation is
 * the authority: the OpenAPI `required` list only says a Go field has no `omitempty`, and typed
 * decoding zero-fills non-pointer fields, so kube never answers "Required value" for a missing
 * string, number, bool or embedded struct on the schema's word. Likewise built-in list-maps are only
 * unique where handwritten validation says so. These tables keep validateSchema from answering 422
 * where kube answers 201.
 */
import type { FieldNode, StructNode } from './types.js';

/**
 * Required struct references that are Go pointers without omitempty: decoding leaves them nil, and
 * kube's validation rejects nil with exactly `<path>: Required value`.
 */
const nilPointerFields = new Set([
  'api.apps.v1.DaemonSetSpec.selector',
  'api.apps.v1.DeploymentSpec.selector',
  'api.apps.v1.ReplicaSetSpec.selector',
  'api.apps.v1.StatefulSetSpec.selector',
]);

/** Required lists and maps that kube nevertheless accepts empty or absent (or defaults before validating). */
const acceptsEmpty = new Set([
  'api.core.v1.LimitRangeSpec.limits',
  'api.discovery.v1.EndpointSlice.endpoints',
  'api.storage.v1.CSINodeSpec.drivers',
  'api.authentication.v1.TokenRequestSpec.audiences',
  'api.batch.v1.PodFailurePolicy.rules',
]);

/** List-maps and list-sets whose duplicates kube accepts on create and update (it warns at most). */
const toleratesDuplicates = new Set([
  'api.core.v1.Container.env',
  'api.core.v1.Container.ports',
  'api.core.v1.EphemeralContainer.env',
  'api.core.v1.EphemeralContainer.ports',
  'api.core.v1.PodSpec.hostAliases',
  'api.core.v1.PodSpec.imagePullSecrets',
  'api.core.v1.ServiceAccount.secrets',
  'apimachinery.pkg.apis.meta.v1.ObjectMeta.finalizers',
  'apimachinery.pkg.apis.meta.v1.ObjectMeta.ownerReferences',
]);

/**
 * True when a missing (absent or null) required field is reported as `Required value`: lists and
 * maps (Go leaves them nil) unless listed as accepted empty, and the nil-pointer struct fields above.
 * Scalars, embedded structs and custom types never are. Lists of *List kinds, the alpha/beta
 * resource.k8s.io types (whose rules are still moving) and the status subtree (see validate.ts) are
 * left to handwritten validation.
 */
export function enforcesRequired(owner: StructNode, field: FieldNode): boolean {
  const key = `${owner.definition}.${field.name}`;
  switch (field.node.kind) {
    case 'array':
    case 'map':
      if (acceptsEmpty.has(key)) return false;
      if (field.name === 'items' && owner.definition.endsWith('List')) return false;
      return !owner.definition.startsWith('api.resource.');
    case 'struct':
      return nilPointerFields.has(key);
    default:
      return false;
  }
}

/** True when duplicates of an x-kubernetes-list-type map/set field are reported. */
export function enforcesListUniqueness(owner: StructNode, field: FieldNode): boolean {
  return !toleratesDuplicates.has(`${owner.definition}.${field.name}`);
}
