/**
 * DefaultTolerationSeconds (kube's admission plugin of that name): a pod created or updated
 * without a toleration for node.kubernetes.io/not-ready:NoExecute (or unreachable) gets one with
 * --default-not-ready-toleration-seconds (--default-unreachable-toleration-seconds) seconds,
 * default 300, so it is evicted that long after its node fails.
 */
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { isPodRequest, podSpec, type Pod, type Toleration } from '../pod-shared/pod-types.js';

/** The taint a node gets when its Ready condition is False. */
export const taintNodeNotReady = 'node.kubernetes.io/not-ready';
/** The taint a node gets when its Ready condition is Unknown. */
export const taintNodeUnreachable = 'node.kubernetes.io/unreachable';

/** The DefaultTolerationSeconds plugin. */
export class DefaultTolerationSeconds implements AdmissionPlugin {
  readonly name = 'DefaultTolerationSeconds';
  private readonly notReady: Toleration;
  private readonly unreachable: Toleration;

  constructor(notReadySeconds: number, unreachableSeconds: number) {
    this.notReady = { key: taintNodeNotReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds };
    this.unreachable = { key: taintNodeUnreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds };
  }

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const spec = podSpec(attrs.object as Pod);
    let notReady = false;
    let unreachable = false;
    for (const t of spec.tolerations ?? []) {
      const anyEffect = !t.effect || t.effect === 'NoExecute';
      if ((t.key === taintNodeNotReady || !t.key) && anyEffect) notReady = true;
      if ((t.key === taintNodeUnreachable || !t.key) && anyEffect) unreachable = true;
    }
    if (notReady && unreachable) return;
    const added = [...(notReady ? [] : [{ ...this.notReady }]), ...(unreachable ? [] : [{ ...this.unreachable }])];
    spec.tolerations = [...(spec.tolerations ?? []), ...added];
  }
}
