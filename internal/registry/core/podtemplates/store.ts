/**
 * The podtemplates resource of core/v1, stored under /podtemplates/<namespace>/<name>.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isNil } from '../shared/defaults-values.js';
import { defaultPodTemplateSpec } from '../shared/pod-defaults.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { podTemplateStrategy } from './strategy.js';

/** core/v1 SetObjectDefaults_PodTemplate: the template's pod defaults. Mutates obj. */
export function defaultPodTemplate(obj: KubeObject): void {
  if (isNil(obj.template)) obj.template = {};
  const template = childObject(obj, 'template');
  if (template) defaultPodTemplateSpec(template);
}

/** Builds the core/v1 podtemplates registration. */
export const podTemplatesModule = defineResourceModule({
  group: '',
  resource: 'podtemplates',
  kind: 'PodTemplate',
  keyPrefix: '/podtemplates',
  storageVersion: 'v1',
  strategy: podTemplateStrategy,
  versions: [{ version: 'v1', defaulter: defaultPodTemplate }],
});
