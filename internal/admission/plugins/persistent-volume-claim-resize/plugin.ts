/**
 * PersistentVolumeClaimResize (kube's admission plugin of that name): a claim's storage request may
 * grow only when the claim is bound and its StorageClass (the same before and after) sets
 * allowVolumeExpansion; otherwise 403 with kube's message.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import { claimClass } from '../../../quota/persistent-volume-claims.js';
import { resourceListFromJSON } from '../../../quota/resource-list.js';
import type { RequestContext } from '../../../request/context.js';
import { newQuantity } from '../../../validation/quantity.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { waitForReady } from '../informer-ready.js';

interface ClaimLike extends KubeObject {
  spec?: { resources?: { requests?: Record<string, string> } };
  status?: { phase?: string };
}

function requestedStorage(pvc: ClaimLike) {
  return resourceListFromJSON(pvc.spec?.resources?.requests).get('storage') ?? newQuantity(0);
}

/** The PersistentVolumeClaimResize plugin over the StorageClass informer. */
export class PersistentVolumeClaimResize implements AdmissionPlugin {
  readonly name = 'PersistentVolumeClaimResize';

  constructor(private readonly storageClasses: Informer) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.resource !== 'persistentvolumeclaims' || attrs.group !== '' || attrs.subresource !== '') return;
    const pvc = attrs.object as ClaimLike | undefined;
    const old = attrs.oldObject as ClaimLike | undefined;
    if (!pvc || !old) return;
    if (requestedStorage(pvc).cmp(requestedStorage(old)) <= 0) return;
    if (old.status?.phase !== 'Bound') throw admissionForbidden(attrs, 'Only bound persistent volume claims can be expanded');
    if (!(await this.allowResize(attrs, pvc, old))) {
      throw admissionForbidden(attrs, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    }
  }

  private async allowResize(attrs: AdmissionAttributes, pvc: ClaimLike, old: ClaimLike): Promise<boolean> {
    const cls = claimClass(pvc);
    if (cls === '' || cls !== claimClass(old)) return false;
    await waitForReady(attrs, [this.storageClasses]);
    const sc = this.storageClasses.get(cls) as (KubeObject & { allowVolumeExpansion?: boolean }) | undefined;
    return sc?.allowVolumeExpansion === true;
  }
}
