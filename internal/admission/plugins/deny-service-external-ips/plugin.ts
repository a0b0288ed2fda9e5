/**
 * DenyServiceExternalIPs (kube's plugin/pkg/admission/denyserviceexternalips): a validating
 * plugin that refuses any Service create or update adding an address to spec.externalIPs, with
 * kube's 403; keeping or removing addresses a Service already has stays allowed.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden } from '../../../apierrors/factories.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../interface.js';

function externalIPs(obj: KubeObject | undefined): string[] {
  const ips = (obj?.spec as { externalIPs?: unknown } | undefined)?.externalIPs;
  return Array.isArray(ips) ? ips.map(String) : [];
}

/** isSubset: every external IP of the new Service was already on the old one. */
function isSubset(next: KubeObject | undefined, old: KubeObject | undefined): boolean {
  const ips = externalIPs(next);
  if (ips.length === 0) return true;
  if (!old) return false;
  const before = new Set(externalIPs(old));
  return ips.every((ip) => before.has(ip));
}

/** Builds the plugin (it has no configuration). */
export function denyServiceExternalIPs(): AdmissionPlugin {
  return {
    name: 'DenyServiceExternalIPs',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(attrs: AdmissionAttributes) {
      if (attrs.resource !== 'services' || attrs.group !== '' || attrs.subresource !== '') return;
      if (isSubset(attrs.object, attrs.operation === 'UPDATE' ? attrs.oldObject : undefined)) return;
      const name = attrs.name || attrs.object?.metadata.name || '';
      throw newForbidden({ group: '', resource: 'services' }, name, 'Use of external IPs is denied by admission control');
    },
  };
}
