/**
 * The priorityclasses resource of scheduling.k8s.io/v1, stored under /priorityclasses/<name>; the
 * system classes cannot be deleted.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultPriorityClass, priorityClassStrategy } from './strategy.js';
import { protectSystemClasses } from './system-classes.js';

/** Builds the scheduling.k8s.io/v1 priorityclasses registration. */
export const priorityClassesModule = defineResourceModule({
  group: 'scheduling.k8s.io',
  resource: 'priorityclasses',
  kind: 'PriorityClass',
  keyPrefix: '/priorityclasses',
  storageVersion: 'v1',
  strategy: priorityClassStrategy,
  versions: [{ version: 'v1', defaulter: defaultPriorityClass }],
  decorateMain: protectSystemClasses,
});
