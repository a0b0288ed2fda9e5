/**
 * The horizontalpodautoscalers resource of autoscaling, served in v2 (the storage version) and
 * v1 (through a conversion), stored under /horizontalpodautoscalers/<namespace>/<name>, with
 * horizontalpodautoscalers/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { hpaV1Conversion } from './conversion.js';
import { defaultHPAv1, defaultHPAv2 } from './defaults.js';
import { hpaStatusStrategy, hpaStrategy } from './strategy.js';

/** Builds the autoscaling/v2 and autoscaling/v1 horizontalpodautoscalers registrations. */
export const horizontalPodAutoscalersModule = defineResourceModule({
  group: 'autoscaling',
  resource: 'horizontalpodautoscalers',
  kind: 'HorizontalPodAutoscaler',
  keyPrefix: '/horizontalpodautoscalers',
  storageVersion: 'v2',
  strategy: hpaStrategy,
  versions: [
    { version: 'v2', defaulter: defaultHPAv2 },
    { version: 'v1', defaulter: defaultHPAv1, conversion: hpaV1Conversion },
  ],
  status: hpaStatusStrategy,
});
