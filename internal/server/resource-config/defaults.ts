/**
 * kube 1.33's default enablement (controlplane.DefaultAPIResourceConfigSource together with
 * apiextensions-apiserver's and kube-aggregator's): every GA version on; every beta version off
 * (no beta API has been on by default since KEP-3136, and 1.33 serves none of the older ones);
 * every alpha version off. The versions listed off are what api/beta and api/alpha can turn on.
 */
import { ResourceConfig, type GroupVersion } from './resource-config.js';

const gv = (group: string, version: string): GroupVersion => ({ group, version });

/** stableAPIGroupVersionsEnabledByDefault, with apiextensions.k8s.io/v1 and apiregistration.k8s.io/v1. */
const stableEnabledByDefault: readonly GroupVersion[] = [
  gv('admissionregistration.k8s.io', 'v1'),
  gv('', 'v1'),
  gv('apps', 'v1'),
  gv('authentication.k8s.io', 'v1'),
  gv('authorization.k8s.io', 'v1'),
  gv('autoscaling', 'v1'),
  gv('autoscaling', 'v2'),
  gv('batch', 'v1'),
  gv('certificates.k8s.io', 'v1'),
  gv('coordination.k8s.io', 'v1'),
  gv('discovery.k8s.io', 'v1'),
  gv('events.k8s.io', 'v1'),
  gv('networking.k8s.io', 'v1'),
  gv('node.k8s.io', 'v1'),
  gv('policy', 'v1'),
  gv('rbac.authorization.k8s.io', 'v1'),
  gv('storage.k8s.io', 'v1'),
  gv('scheduling.k8s.io', 'v1'),
  gv('flowcontrol.apiserver.k8s.io', 'v1'),
  gv('apiextensions.k8s.io', 'v1'),
  gv('apiregistration.k8s.io', 'v1'),
];

/** betaAPIGroupVersionsDisabledByDefault (and the two extension servers' v1beta1). */
const betaDisabledByDefault: readonly GroupVersion[] = [
  gv('admissionregistration.k8s.io', 'v1beta1'),
  gv('authentication.k8s.io', 'v1beta1'),
  gv('certificates.k8s.io', 'v1beta1'),
  gv('coordination.k8s.io', 'v1beta1'),
  gv('networking.k8s.io', 'v1beta1'),
  gv('resource.k8s.io', 'v1beta1'),
  gv('resource.k8s.io', 'v1beta2'),
  gv('storage.k8s.io', 'v1beta1'),
  gv('flowcontrol.apiserver.k8s.io', 'v1beta1'),
  gv('flowcontrol.apiserver.k8s.io', 'v1beta2'),
  gv('flowcontrol.apiserver.k8s.io', 'v1beta3'),
  gv('apiextensions.k8s.io', 'v1beta1'),
  gv('apiregistration.k8s.io', 'v1beta1'),
];

/** alphaAPIGroupVersionsDisabledByDefault. */
const alphaDisabledByDefault: readonly GroupVersion[] = [
  gv('admissionregistration.k8s.io', 'v1alpha1'),
  gv('internal.apiserver.k8s.io', 'v1alpha1'),
  gv('authentication.k8s.io', 'v1alpha1'),
  gv('certificates.k8s.io', 'v1alpha1'),
  gv('coordination.k8s.io', 'v1alpha2'),
  gv('resource.k8s.io', 'v1alpha3'),
  gv('storage.k8s.io', 'v1alpha1'),
  gv('storagemigration.k8s.io', 'v1alpha1'),
];

/** A fresh table of kube 1.33's defaults (the caller may change it). */
export function defaultResourceConfig(): ResourceConfig {
  const config = new ResourceConfig();
  config.enableVersions(...stableEnabledByDefault);
  config.disableVersions(...betaDisabledByDefault, ...alphaDisabledByDefault);
  return config;
}
