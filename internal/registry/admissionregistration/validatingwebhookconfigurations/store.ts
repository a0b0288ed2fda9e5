/**
 * The validatingwebhookconfigurations resource of admissionregistration.k8s.io/v1, stored under /validatingwebhookconfigurations/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultValidatingWebhookConfiguration, validatingWebhookConfigurationStrategy } from './strategy.js';

/** Builds the admissionregistration.k8s.io/v1 validatingwebhookconfigurations registration. */
export const validatingWebhookConfigurationsModule = defineResourceModule({
  group: 'admissionregistration.k8s.io',
  resource: 'validatingwebhookconfigurations',
  kind: 'ValidatingWebhookConfiguration',
  keyPrefix: '/validatingwebhookconfigurations',
  storageVersion: 'v1',
  strategy: validatingWebhookConfigurationStrategy,
  versions: [{ version: 'v1', defaulter: defaultValidatingWebhookConfiguration }],
});
