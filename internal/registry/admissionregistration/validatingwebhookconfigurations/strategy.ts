/**
 * ValidatingWebhookConfiguration rules (kube's pkg/registry/admissionregistration/validatingwebhookconfiguration): valid
 * webhooks, and a generation that starts at 1 and grows whenever the webhooks change.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { defaultWebhookConfiguration } from '../shared/defaults.js';
import { validateWebhookConfiguration } from '../shared/validation.js';

/** The ValidatingWebhookConfiguration strategy. */
export const validatingWebhookConfigurationStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  validate: (obj) => validateWebhookConfiguration(obj, false),
});

/** admissionregistration/v1 defaulting of each webhook. Mutates obj. */
export function defaultValidatingWebhookConfiguration(obj: KubeObject): void {
  defaultWebhookConfiguration(obj, false);
}
