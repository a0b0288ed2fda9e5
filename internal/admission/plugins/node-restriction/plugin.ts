/**
 * NodeRestriction (kube's admission plugin of that name): a node's identity (user
 * system:node:<name> in group system:nodes) may write only what belongs to it: its Node, mirror
 * pods bound to it, the status of its pods, evictions of its pods, tokens for its pods, its Lease,
 * CSINode and ResourceSlices, and PersistentVolumeClaim status (rules in pods.ts and rules.ts).
 * Other users pass untouched at the cost of one string check. Pods and nodes are read from shared
 * informers started on the first node request that needs them.
 */
import type { RequestContext } from '../../../request/context.js';
import { nodeIdentity } from '../../../authz/node/authorizer.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { admitPod, admitPodEviction, admitPodStatus, type NodeRestrictionLookups } from './pods.js';
import { admitCSINode, admitLease, admitNode, admitPVC, admitResourceSlice, admitServiceAccount } from './rules.js';

/** The NodeRestriction plugin. */
export class NodeRestriction implements AdmissionPlugin {
  readonly name = 'NodeRestriction';

  constructor(private readonly lookups: NodeRestrictionLookups) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!attrs.userInfo.name.startsWith('system:node:')) return;
    const node = nodeIdentity(attrs.userInfo);
    if (node === undefined) return;
    if (node === '') throw admissionForbidden(attrs, `could not determine node from user "${attrs.userInfo.name}"`);
    const gr = attrs.group === '' ? attrs.resource : `${attrs.resource}.${attrs.group}`;
    switch (gr) {
      case 'pods':
        if (attrs.subresource === '') return await admitPod(node, attrs, this.lookups);
        if (attrs.subresource === 'status') return admitPodStatus(node, attrs);
        if (attrs.subresource === 'eviction') return await admitPodEviction(node, attrs, this.lookups);
        throw admissionForbidden(attrs, `unexpected pod subresource "${attrs.subresource}", only 'status' and 'eviction' are allowed`);
      case 'nodes':
        return admitNode(node, attrs);
      case 'persistentvolumeclaims':
        return admitPVC(node, attrs);
      case 'serviceaccounts':
        return await admitServiceAccount(node, attrs, this.lookups);
      case 'leases.coordination.k8s.io':
        return admitLease(node, attrs);
      case 'csinodes.storage.k8s.io':
        return admitCSINode(node, attrs);
      case 'resourceslices.resource.k8s.io':
        return admitResourceSlice(node, attrs);
      default:
        return;
    }
  }
}
