/**
 * The admission plugins kube-apiserver 1.33 knows, in the order its chain runs them
 * (pkg/kubeapiserver/options AllOrderedPlugins), which are on by default, and how the chain is
 * built from --enable-admission-plugins / --disable-admission-plugins and the per-plugin
 * configuration of --admission-control-config-file. The order of the flags' lists never matters.
 */
import { hasReason } from '../../apierrors/status-error.js';
import type { RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import type { AdmissionPlugin } from '../interface.js';
import { NamespaceLifecycle } from './namespace-lifecycle/plugin.js';
import type { AdmissionPluginDeps, AdmissionPluginFactories, AdmissionPluginFactory } from './deps.js';
import { gcFactories } from './factories/gc.js';
import { miscFactories } from './factories/misc.js';
import { podsFactories } from './factories/pods.js';
import { podsecurityFactories } from './factories/podsecurity.js';
import { policyFactories } from './factories/policy.js';
import { quotaFactories } from './factories/quota.js';
import { servicesFactories } from './factories/services.js';
import { webhooksFactories } from './factories/webhooks.js';

/** Every plugin name, in the chain's order. */
export const allOrderedPlugins: readonly string[] = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'PodTopologyLabels',
  // webhook, resourcequota and deny plugins go at the end
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

/** The plugins on unless --disable-admission-plugins names them (kube's DefaultOffAdmissionPlugins complement). */
export const defaultOnPlugins: ReadonlySet<string> = new Set([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultStorageClass',
  'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'Priority',
  'TaintNodesByCondition',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'PodSecurity',
  'PodTopologyLabels',
  'MutatingAdmissionPolicy',
  'ValidatingAdmissionPolicy',
]);

/** NamespaceLifecycle: refuses writes into namespaces that do not exist or are terminating. */
const namespaceLifecycle: AdmissionPluginFactory = (deps) => {
  const namespaces = deps.storageOf('', 'namespaces') as RestStorage;
  return new NamespaceLifecycle(async (name, live) => {
    try {
      return await (namespaces.get as NonNullable<RestStorage['get']>).call(namespaces, internalContext({ verb: 'get', resource: 'namespaces', name }), name, {
        resourceVersion: live ? '' : '0',
      });
    } catch (err) {
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  });
};

/** Every factory Capstan has, by name. A name of allOrderedPlugins without one is not built yet. */
export const pluginFactories: AdmissionPluginFactories = {
  NamespaceLifecycle: namespaceLifecycle,
  ...webhooksFactories,
  ...policyFactories,
  ...podsecurityFactories,
  ...podsFactories,
  ...quotaFactories,
  ...gcFactories,
  ...servicesFactories,
  ...miscFactories,
};

/** The names of the plugins to run, in the chain's order, from the two flags' lists. */
export function enabledPlugins(enable: readonly string[], disable: readonly string[]): string[] {
  const on = new Set(enable);
  const off = new Set(disable);
  return allOrderedPlugins.filter((name) => !off.has(name) && (on.has(name) || defaultOnPlugins.has(name)));
}

/**
 * Builds the enabled plugins in order with their configuration (by plugin name). A plugin kube has
 * but Capstan has no factory for is skipped only when it was not asked for by name; asked for, it
 * stops the start with the reason.
 */
export async function buildAdmissionPlugins(
  names: readonly string[],
  configs: ReadonlyMap<string, unknown>,
  deps: AdmissionPluginDeps,
  explicitlyEnabled: ReadonlySet<string>,
): Promise<AdmissionPlugin[]> {
  const plugins: AdmissionPlugin[] = [];
  for (const name of names) {
    const factory = pluginFactories[name];
    if (!factory) {
      if (explicitlyEnabled.has(name)) throw new Error(`admission plugin "${name}" is not available in Capstan`);
      deps.log.info(`admission plugin ${name} is not built in this server; skipped`);
      continue;
    }
    try {
      plugins.push(await factory(deps, configs.get(name)));
    } catch (err) {
      throw new Error(`failed to initialize admission plugin "${name}": ${(err as Error).message}`);
    }
  }
  return plugins;
}
