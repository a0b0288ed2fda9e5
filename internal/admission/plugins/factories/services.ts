/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { AdmissionPluginFactories } from '../deps.js';
import { denyServiceExternalIPs } from '../deny-service-external-ips/plugin.js';

export const servicesFactories: AdmissionPluginFactories = {
  DenyServiceExternalIPs: () => denyServiceExternalIPs(),
};
