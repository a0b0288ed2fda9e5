/**
 * Which updates of a counted object can lower quota usage (kube's install.DefaultUpdateFilter): a
 * pod that finished or outlived its deletion grace period, a service whose quota type changed, a
 * claim whose allocated storage changed. Deletes always can.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { requiresQuotaReplenish } from '../../quota/persistent-volume-claims.js';
import { quotaV1Pod } from '../../quota/pods.js';
import { quotaServiceType } from '../../quota/services.js';

/** Whether updating old to obj of group/resource calls for recounting its namespace's quotas. */
export function updateNeedsReplenish(group: string, resource: string, old: KubeObject, obj: KubeObject, now: number = Date.now()): boolean {
  if (group !== '') return false;
  switch (resource) {
    case 'pods':
      return quotaV1Pod(old, now) && !quotaV1Pod(obj, now);
    case 'services':
      return quotaServiceType(old) !== quotaServiceType(obj);
    case 'persistentvolumeclaims':
      return requiresQuotaReplenish(obj, old);
    default:
      return false;
  }
}
