/**
 * The cronjobs resource of batch/v1, stored under /cronjobs/<namespace>/<name>, with cronjobs/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultCronJob } from './defaults.js';
import { cronJobStatusStrategy, cronJobStrategy } from './strategy.js';

/** Builds the batch/v1 cronjobs registration. */
export const cronJobsModule = defineResourceModule({
  group: 'batch',
  resource: 'cronjobs',
  kind: 'CronJob',
  keyPrefix: '/cronjobs',
  storageVersion: 'v1',
  strategy: cronJobStrategy,
  versions: [{ version: 'v1', defaulter: defaultCronJob }],
  status: cronJobStatusStrategy,
});
