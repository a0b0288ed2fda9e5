/**
 * ExtendedResourceToleration (kube's admission plugin of that name): a pod requesting an extended
 * resource (example.com/gpu) in a container or init container gets an Exists:NoSchedule toleration
 * keyed by that resource's name, so nodes tainted by the resource they offer accept it.
 */
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { isQualifiedName } from '../../../validation/label-values.js';
import { isPodRequest, type Pod } from '../pod-shared/pod-types.js';
import { addOrUpdateToleration } from '../pod-shared/tolerations.js';

/** IsExtendedResourceName: a fully qualified name outside kubernetes.io that also works as a quota name. */
export function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return !native && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
}

/** The ExtendedResourceToleration plugin. */
export class ExtendedResourceToleration implements AdmissionPlugin {
  readonly name = 'ExtendedResourceToleration';

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const spec = (attrs.object as Pod).spec;
    if (!spec) return;
    const names = new Set<string>();
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      for (const r of Object.keys(c.resources?.requests ?? {})) if (isExtendedResourceName(r)) names.add(r);
    }
    for (const r of [...names].sort()) addOrUpdateToleration(spec, { key: r, operator: 'Exists', effect: 'NoSchedule' });
  }
}
