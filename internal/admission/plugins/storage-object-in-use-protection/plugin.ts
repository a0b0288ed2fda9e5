/**
 * StorageObjectInUseProtection (kube's admission plugin of that name): every PersistentVolume and
 * PersistentVolumeClaim is created with its protection finalizer (kubernetes.io/pv-protection,
 * kubernetes.io/pvc-protection), which the protection controllers remove once nothing uses it.
 */
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

const finalizers: Readonly<Record<string, string>> = {
  persistentvolumes: 'kubernetes.io/pv-protection',
  persistentvolumeclaims: 'kubernetes.io/pvc-protection',
};

/** The StorageObjectInUseProtection plugin. */
export class StorageObjectInUseProtection implements AdmissionPlugin {
  readonly name = 'StorageObjectInUseProtection';

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.group !== '' || attrs.subresource !== '' || !attrs.object) return;
    const finalizer = finalizers[attrs.resource];
    if (!finalizer) return;
    const meta = attrs.object.metadata;
    if (meta.finalizers?.includes(finalizer)) return;
    meta.finalizers = [...(meta.finalizers ?? []), finalizer];
  }
}
