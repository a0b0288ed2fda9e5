/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { AdmissionPluginFactories } from '../deps.js';
import { createPodSecurity } from '../pod-security/plugin.js';

export const podsecurityFactories: AdmissionPluginFactories = {
  PodSecurity: createPodSecurity,
};
