/**
 * PodTemplate rules (kube's pkg/registry/core/podtemplate): a valid pod template, and a
 * generation that starts at 1 and grows whenever the template changes.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { asObject } from '../shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validatePodTemplateSpec } from '../../shared/pod-template-validation.js';

function validatePodTemplate(obj: KubeObject) {
  return validatePodTemplateSpec(asObject(obj.template), 'template');
}

/** The PodTemplate strategy. */
export const podTemplateStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  validate: validatePodTemplate,
});
