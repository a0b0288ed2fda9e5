/**
 * The structured-merge-diff type of a CRD version (what kube derives from the version's OpenAPI
 * for managed fields and server-side apply): objects are granular maps unless
 * x-kubernetes-map-type is atomic, lists atomic unless list-type set (associative) or map
 * (associative with its keys), int-or-string an untyped scalar, preserve-unknown-fields values
 * deduced, and metadata of the root and of embedded resources the built-in ObjectMeta.
 */
import { apiVersionOfGVK, typeResolverForBuiltins, type TypeResolver } from '../../fieldmanager/type-resolver.js';
import { deducedSchema, untypedDeducedName, type Atom, type ElementRelationship, type Schema, type StructField, type TypeRef } from '../../fieldmanager/schema.js';
import type { StructuralNode } from './structural.js';

const objectMetaName = 'apimachinery.pkg.apis.meta.v1.ObjectMeta';
const deduced: TypeRef = { namedType: untypedDeducedName };
const stringRef: TypeRef = { inlined: { scalar: 'string' } };

function builtinSchema(): Schema {
  const resolved = typeResolverForBuiltins().typeOf({ group: '', version: 'v1', kind: 'ConfigMap' });
  return resolved && resolved.schema.has(objectMetaName) ? resolved.schema : deducedSchema;
}

function refOf(s: StructuralNode, resourceLike: boolean, metaRef: TypeRef): TypeRef {
  if (s.intOrString) return { inlined: { scalar: 'untyped' } };
  switch (s.type) {
    case 'string':
      return stringRef;
    case 'integer':
    case 'number':
      return { inlined: { scalar: 'numeric' } };
    case 'boolean':
      return { inlined: { scalar: 'boolean' } };
    case 'array': {
      const associative = s.listType === 'set' || s.listType === 'map';
      const list = {
        elementType: s.items ? refOf(s.items, s.items.embedded, metaRef) : deduced,
        elementRelationship: (associative ? 'associative' : 'atomic') as ElementRelationship,
        ...(s.listType === 'map' && s.listMapKeys.length > 0 ? { keys: s.listMapKeys } : {}),
      };
      return { inlined: { list } };
    }
    case 'object': {
      const fields: StructField[] = [];
      for (const [name, child] of s.properties) {
        if (resourceLike && name === 'metadata') continue;
        fields.push({ name, type: refOf(child, child.embedded, metaRef) });
      }
      if (resourceLike) {
        if (!s.properties.has('apiVersion')) fields.push({ name: 'apiVersion', type: stringRef });
        if (!s.properties.has('kind')) fields.push({ name: 'kind', type: stringRef });
        fields.push({ name: 'metadata', type: metaRef });
      }
      const elementType = s.additional ? refOf(s.additional, s.additional.embedded, metaRef) : s.preserveUnknown ? deduced : undefined;
      const atom: Atom = {
        map: {
          ...(fields.length > 0 ? { fields } : {}),
          ...(elementType ? { elementType } : {}),
          elementRelationship: s.mapType === 'atomic' ? 'atomic' : 'separable',
        },
      };
      return { inlined: atom };
    }
    default:
      return deduced;
  }
}

/** A resolver that gives kind (any kind when undefined) the type of root. */
export function customResourceTypeResolver(root: StructuralNode, kind: string | undefined): TypeResolver {
  const schema = builtinSchema();
  const metaRef: TypeRef = schema.has(objectMetaName) ? { namedType: objectMetaName } : deduced;
  const typeRef = refOf({ ...root, type: 'object' }, true, metaRef);
  return {
    typeOf: (gvk) => (kind === undefined || gvk.kind === kind ? { schema, typeRef } : undefined),
    zeroObject: (gvk) => ({ apiVersion: apiVersionOfGVK(gvk), kind: gvk.kind, metadata: {} }),
    normalize: (_gvk, obj) => obj,
  };
}
