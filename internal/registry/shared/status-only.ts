/**
 * The status rule most resources share: a write to <resource>/status changes status and
 * metadata only, never the spec (kube's `newObj.Spec = oldObj.Spec`).
 */
import type { StatusStrategy } from '../generic/strategy.js';
import { takeAllButStatusFrom } from '../core/shared/status-write.js';

/** A status strategy that keeps everything but status and metadata from the stored object. */
export const statusOnlyStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};
