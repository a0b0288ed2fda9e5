/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { AdmissionPluginFactories } from '../deps.js';

export const podsecurityFactories: AdmissionPluginFactories = {};
