/**
 * The resourcequotas resource of core/v1, stored under /resourcequotas/<namespace>/<name>, with
 * resourcequotas/status. Status starts empty and is written only through the subresource.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultResourceQuota, resourceQuotaStatusStrategy, resourceQuotaStrategy } from './strategy.js';

/** Builds the core/v1 resourcequotas registration. */
export const resourceQuotasModule = defineResourceModule({
  group: '',
  resource: 'resourcequotas',
  kind: 'ResourceQuota',
  keyPrefix: '/resourcequotas',
  storageVersion: 'v1',
  strategy: resourceQuotaStrategy,
  versions: [{ version: 'v1', defaulter: defaultResourceQuota }],
  status: resourceQuotaStatusStrategy,
});
