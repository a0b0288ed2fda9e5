/**
 * ResourceQuota rules (kube's pkg/registry/core/resourcequota): status starts empty and is
 * written only through resourcequotas/status; hard limits and scopes are checked by
 * ValidateResourceQuota; quantities are defaulted to canonical form.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { childObject } from '../shared/defaults-values.js';
import { defaultResourceList } from '../shared/resource-list-defaults.js';
import { takeAllButStatusFrom } from '../shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateResourceQuota, validateResourceQuotaStatus } from './validation.js';

/** The ResourceQuota strategy (kube's pkg/registry/core/resourcequota). */
export const resourceQuotaStrategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  validate: validateResourceQuota,
});

/** resourcequotas/status: only status changes. */
export const resourceQuotaStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateResourceQuotaStatus(obj);
  },
};

/** core/v1 SetObjectDefaults_ResourceQuota: canonical quantities in spec.hard, status.hard and status.used. */
export function defaultResourceQuota(obj: KubeObject): void {
  defaultResourceList(childObject(childObject(obj, 'spec'), 'hard'));
  const status = childObject(obj, 'status');
  defaultResourceList(status?.hard);
  defaultResourceList(status?.used);
}
