/**
 * The customresourcedefinitions resource of apiextensions.k8s.io, served in v1 and stored, as
 * kube stores it, in v1beta1 under /apiextensions.k8s.io/customresourcedefinitions/<name>, with
 * customresourcedefinitions/status. Deleting a CRD first marks it for the CRD finalizer (delete.ts).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { arrayAt, asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { crdV1Conversion } from './conversion.js';
import { withCleanupFinalizer } from './delete.js';
import { crdStatusStrategy, crdStrategy } from './strategy.js';

/**
 * apiextensions/v1 SetDefaults_CustomResourceDefinition: singular from the kind, listKind
 * <Kind>List, conversion strategy None, webhook service port 443, and status.storedVersions
 * from the storage version. Mutates obj.
 */
export function defaultCRD(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  const names = objectAt(spec, 'names');
  if (names) {
    const kind = stringAt(names, 'kind');
    if (!stringAt(names, 'singular')) names.singular = kind.toLowerCase();
    if (!stringAt(names, 'listKind') && kind) names.listKind = `${kind}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const service = objectAt(objectAt(objectAt(asObject(spec.conversion), 'webhook'), 'clientConfig'), 'service');
  if (service && (service.port === undefined || service.port === null)) service.port = 443;
  const status = asObject(obj.status) ?? {};
  if (arrayAt(status, 'storedVersions').length === 0) {
    const storage = arrayAt(spec, 'versions').map((v) => asObject(v) ?? {}).find((v) => v.storage === true);
    if (storage) obj.status = { ...status, storedVersions: [stringAt(storage, 'name')] };
  }
}

/** Builds the apiextensions.k8s.io/v1 customresourcedefinitions registration. */
export const customResourceDefinitionsModule = defineResourceModule({
  group: 'apiextensions.k8s.io',
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  keyPrefix: '/apiextensions.k8s.io/customresourcedefinitions',
  storageVersion: 'v1beta1',
  strategy: crdStrategy,
  versions: [{ version: 'v1', defaulter: defaultCRD, conversion: crdV1Conversion }],
  status: crdStatusStrategy,
  decorateMain: withCleanupFinalizer,
});
