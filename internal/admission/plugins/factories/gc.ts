/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { AdmissionPluginFactories } from '../deps.js';
import { servedKindMapper } from '../owner-references-permission-enforcement/kind-mapper.js';
import { OwnerReferencesPermissionEnforcement } from '../owner-references-permission-enforcement/plugin.js';

export const gcFactories: AdmissionPluginFactories = {
  OwnerReferencesPermissionEnforcement: (deps) => new OwnerReferencesPermissionEnforcement(deps.authorizer, servedKindMapper(deps.storageOf)),
};
