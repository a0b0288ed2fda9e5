/**
 * The mutatingwebhookconfigurations resource of admissionregistration.k8s.io/v1, stored under /mutatingwebhookconfigurations/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultMutatingWebhookConfiguration, mutatingWebhookConfigurationStrategy } from './strategy.js';

/** Builds the admissionregistration.k8s.io/v1 mutatingwebhookconfigurations registration. */
export const mutatingWebhookConfigurationsModule = defineResourceModule({
  group: 'admissionregistration.k8s.io',
  resource: 'mutatingwebhookconfigurations',
  kind: 'MutatingWebhookConfiguration',
  keyPrefix: '/mutatingwebhookconfigurations',
  storageVersion: 'v1',
  strategy: mutatingWebhookConfigurationStrategy,
  versions: [{ version: 'v1', defaulter: defaultMutatingWebhookConfiguration }],
});
