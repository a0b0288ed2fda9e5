/**
 * The jobs resource of batch/v1, stored under /jobs/<namespace>/<name>, with jobs/status; deletes
 * without a propagation policy warn that pods are kept.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultJob } from './defaults.js';
import { withDeleteWarning } from './delete-warning.js';
import { jobStatusStrategy, jobStrategy } from './strategy.js';

/** Builds the batch/v1 jobs registration. */
export const jobsModule = defineResourceModule({
  group: 'batch',
  resource: 'jobs',
  kind: 'Job',
  keyPrefix: '/jobs',
  storageVersion: 'v1',
  strategy: jobStrategy,
  versions: [{ version: 'v1', defaulter: defaultJob }],
  status: jobStatusStrategy,
  decorateMain: withDeleteWarning,
});
