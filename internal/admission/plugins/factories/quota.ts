/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import { ResourceClient } from '../../../controllers/resource-client.js';
import { EvaluatorRegistry } from '../../../quota/registry.js';
import { quotaStatusWriter } from '../../../quota/status-writer.js';
import type { RestStorage } from '../../../registry/interface.js';
import { parseEventRateLimitConfiguration } from '../event-rate-limit/config.js';
import { EventRateLimitPlugin } from '../event-rate-limit/plugin.js';
import { DefaultIngressClass } from '../default-ingress-class/plugin.js';
import { DefaultStorageClass } from '../default-storage-class/plugin.js';
import { PersistentVolumeClaimResize } from '../persistent-volume-claim-resize/plugin.js';
import { StorageObjectInUseProtection } from '../storage-object-in-use-protection/plugin.js';
import type { AdmissionPluginDeps, AdmissionPluginFactories } from '../deps.js';
import { parseResourceQuotaConfiguration } from '../resource-quota/config.js';
import { QuotaAccessor } from '../resource-quota/quota-accessor.js';
import { QuotaAdmissionEvaluator } from '../resource-quota/quota-evaluator.js';
import { ResourceQuotaPlugin } from '../resource-quota/plugin.js';

function storage(deps: AdmissionPluginDeps, group: string, resource: string, subresource?: string): RestStorage {
  const s = deps.storageOf(group, resource, subresource);
  if (!s) throw new Error(`the server does not serve ${resource}${subresource ? `/${subresource}` : ''}`);
  return s;
}

/**
 * ResourceQuota (with its informer-backed accessor and status writer), the storage and ingress
 * class plugins over shared informers, and EventRateLimit; each reads its configuration here and
 * throws kube's message when it is invalid.
 */
export const quotaFactories: AdmissionPluginFactories = {
  DefaultStorageClass: (deps) => new DefaultStorageClass(deps.informers.get('storage.k8s.io', 'storageclasses')),
  StorageObjectInUseProtection: () => new StorageObjectInUseProtection(),
  PersistentVolumeClaimResize: (deps) => new PersistentVolumeClaimResize(deps.informers.get('storage.k8s.io', 'storageclasses')),
  DefaultIngressClass: (deps) => new DefaultIngressClass(deps.informers.get('networking.k8s.io', 'ingressclasses')),
  EventRateLimit: (_deps, config) => new EventRateLimitPlugin(parseEventRateLimitConfiguration(config)),
  ResourceQuota: (deps, config) => {
    const configuration = parseResourceQuotaConfiguration(config);
    const accessor = new QuotaAccessor(
      deps.informers.get('', 'resourcequotas'),
      new ResourceClient(storage(deps, '', 'resourcequotas'), '', 'resourcequotas'),
      quotaStatusWriter(storage(deps, '', 'resourcequotas', 'status')),
    );
    return new ResourceQuotaPlugin(new QuotaAdmissionEvaluator(accessor, new EvaluatorRegistry(), configuration));
  },
};
