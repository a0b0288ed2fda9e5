/**
 * LimitPodHardAntiAffinityTopology (kube's admission plugin of that name): a pod's required pod
 * anti-affinity terms may only use the kubernetes.io/hostname topology key (403 otherwise), so no
 * pod can keep a whole zone to itself.
 */
import { newForbidden } from '../../../apierrors/factories.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { isPodRequest, type Pod } from '../pod-shared/pod-types.js';

const labelHostname = 'kubernetes.io/hostname';

/** The LimitPodHardAntiAffinityTopology plugin. */
export class LimitPodHardAntiAffinityTopology implements AdmissionPlugin {
  readonly name = 'LimitPodHardAntiAffinityTopology';

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    for (const term of pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
      if (term.topologyKey !== labelHostname) {
        throw newForbidden(
          { group: '', resource: 'pods' },
          pod.metadata.name ?? '',
          `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${term.topologyKey ?? ''} but only key ${labelHostname} is allowed`,
        );
      }
    }
  }
}
