/**
 * Writes a ResourceQuota's status through resourcequotas/status as the API server itself, carrying
 * the resourceVersion the caller read: a quota changed since fails with 409 Conflict instead of
 * being overwritten (the compare-and-swap quota admission and the quota controller rely on).
 */
import { newNotFound } from '../apierrors/factories.js';
import type { RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';
import type { QuotaObject } from './interface.js';

/** Writes quota (its status) and returns what was stored. */
export type QuotaStatusWriter = (quota: QuotaObject) => Promise<QuotaObject>;

/** A writer over the resourcequotas/status storage. */
export function quotaStatusWriter(status: RestStorage): QuotaStatusWriter {
  if (!status.update) throw new Error('resourcequotas/status storage cannot update');
  const update = status.update.bind(status);
  return async (quota) => {
    const name = quota.metadata.name ?? '';
    const namespace = quota.metadata.namespace ?? '';
    const ctx = internalContext({ verb: 'update', resource: 'resourcequotas', subresource: 'status', namespace, name });
    const res = await update(
      ctx,
      name,
      {
        updatedObject: async (_ctx, old) => {
          if (!old) throw newNotFound({ group: '', resource: 'resourcequotas' }, name);
          return structuredClone(quota);
        },
      },
      { dryRun: false },
    );
    return res.object as QuotaObject;
  };
}
