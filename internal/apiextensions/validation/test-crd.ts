/**
 * Test helpers: CRDs written as a client writes them (apiextensions.k8s.io/v1), turned into the
 * stored internal form the strategy validates (defaulted, then converted). Test code only.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { crdV1Conversion } from '../../registry/apiextensions/customresourcedefinitions/conversion.js';
import { defaultCRD } from '../../registry/apiextensions/customresourcedefinitions/store.js';

/** A structural schema of an object with a spec of the given properties. */
export function specSchema(properties: Record<string, unknown>): Record<string, unknown> {
  return { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } };
}

/** A valid v1 CRD widgets.example.com with one version v1, changed by edit. */
export function v1CRD(edit: (crd: any) => void = () => undefined): KubeObject {
  const crd: any = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: specSchema({ size: { type: 'integer' } }) }],
    },
  };
  edit(crd);
  return crd;
}

/** The stored (internal) form of a v1 CRD, defaulted as the API server defaults it. */
export function stored(v1: KubeObject): KubeObject {
  const copy = structuredClone(v1);
  defaultCRD(copy);
  return crdV1Conversion.toInternal(copy);
}
