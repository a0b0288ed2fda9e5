/**
 * CronJob rules (kube's pkg/registry/batch/cronjob): status reset on create and written only
 * through cronjobs/status, generation tracking, dependents deleted by default in batch/v1.
 */
import type { StatusStrategy } from '../../generic/strategy.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { podNameWarnings } from '../../shared/name-warnings.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateCronJob, validateCronJobUpdate } from './validation.js';

/** The CronJob strategy. */
export const cronJobStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  defaultGarbageCollectionPolicy: 'DeleteDependents',
  validate: (obj) => validateCronJob(obj),
  validateUpdate: (obj, old) => validateCronJobUpdate(obj, old),
  warningsOnCreate: (_ctx, obj) => podNameWarnings(obj),
});

/** cronjobs/status: only status changes. */
export const cronJobStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};
