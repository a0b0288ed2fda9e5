/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { AdmissionPluginFactories } from '../deps.js';
import { newImagePolicyWebhook } from '../image-policy-webhook/plugin.js';
import { newWebhookPlugin } from '../webhook/plugin.js';

export const webhooksFactories: AdmissionPluginFactories = {
  MutatingAdmissionWebhook: (deps, config) => newWebhookPlugin(deps, config, true),
  ValidatingAdmissionWebhook: (deps, config) => newWebhookPlugin(deps, config, false),
  ImagePolicyWebhook: (deps, config) => newImagePolicyWebhook(deps, config),
};
