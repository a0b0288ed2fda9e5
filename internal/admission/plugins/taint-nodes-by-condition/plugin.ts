/**
 * TaintNodesByCondition (kube's admission plugin of that name): a Node is created with the
 * node.kubernetes.io/not-ready:NoSchedule taint (unless it has it), so nothing is scheduled to it
 * before its node lifecycle controller has seen it Ready and removed the taint.
 */
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

/** The TaintNodesByCondition plugin. */
export class TaintNodesByCondition implements AdmissionPlugin {
  readonly name = 'TaintNodesByCondition';

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.resource !== 'nodes' || attrs.group !== '' || attrs.subresource !== '' || !attrs.object) return;
    const node = attrs.object as { spec?: { taints?: Taint[] } };
    const spec = (node.spec ??= {});
    // kube's MatchTaint: the same key and effect.
    if ((spec.taints ?? []).some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule')) return;
    spec.taints = [...(spec.taints ?? []), { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }];
  }
}
