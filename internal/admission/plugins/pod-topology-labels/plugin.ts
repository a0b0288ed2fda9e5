/**
 * PodTopologyLabels (kube 1.33's alpha admission plugin of that name, behind the
 * PodTopologyLabelsAdmission feature gate, off by default): when a pod is bound to a node
 * (pods/binding, or a pod created with spec.nodeName), the node's topology.kubernetes.io/zone and
 * topology.kubernetes.io/region labels are copied onto the Binding (whose labels the binding store
 * copies to the pod), or onto the pod, replacing a value already there. With the gate off (the
 * default) the server builds it disabled, as kube does: it then does nothing.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { cached, waitForReady } from '../pod-shared/lookup.js';
import type { Pod } from '../pod-shared/pod-types.js';

/** The node labels copied. */
export const topologyLabels: readonly string[] = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'];

/** The PodTopologyLabels plugin; enabled stands for the PodTopologyLabelsAdmission feature gate. */
export class PodTopologyLabels implements AdmissionPlugin {
  readonly name = 'PodTopologyLabels';

  constructor(
    private readonly nodes: () => Informer,
    private readonly enabled: boolean,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return this.enabled && operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!this.enabled || attrs.resource !== 'pods' || attrs.group !== '' || !attrs.object) return;
    let target: KubeObject;
    let nodeName: string | undefined;
    if (attrs.subresource === 'binding') {
      const t = (attrs.object as { target?: { kind?: string; name?: string } }).target;
      if (t?.kind !== 'Node') return;
      target = attrs.object;
      nodeName = t.name;
    } else if (attrs.subresource === '') {
      target = attrs.object;
      nodeName = (attrs.object as Pod).spec?.nodeName;
    } else {
      return;
    }
    if (!nodeName) return;
    const nodes = this.nodes();
    if (!(await waitForReady(nodes))) throw admissionForbidden(attrs, 'not yet ready to handle request');
    // A node that does not exist (yet) has no labels to copy.
    const node = cached(nodes, '', nodeName);
    const copied: Record<string, string> = {};
    for (const key of topologyLabels) {
      const v = node?.metadata.labels?.[key];
      if (v !== undefined) copied[key] = v;
    }
    if (Object.keys(copied).length === 0) return;
    target.metadata.labels = { ...(target.metadata.labels ?? {}), ...copied };
  }
}
