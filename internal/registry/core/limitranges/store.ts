/**
 * The limitranges resource of core/v1, stored under /limitranges/<namespace>/<name>. A
 * LimitRange can be created by PUT (kube's AllowCreateOnUpdate is true for it).
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultLimitRange, limitRangeStrategy } from './strategy.js';

/** Builds the core/v1 limitranges registration. */
export const limitRangesModule = defineResourceModule({
  group: '',
  resource: 'limitranges',
  kind: 'LimitRange',
  keyPrefix: '/limitranges',
  storageVersion: 'v1',
  strategy: limitRangeStrategy,
  versions: [{ version: 'v1', defaulter: defaultLimitRange }],
});
