/**
 * DefaultStorageClass (kube's admission plugin of that name): a PersistentVolumeClaim created
 * without a class (no spec.storageClassName, no volume.beta.kubernetes.io/storage-class annotation)
 * gets the default StorageClass: the one annotated storageclass.kubernetes.io/is-default-class (or
 * its beta form) "true", the newest when several are.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { waitForReady } from '../informer-ready.js';
import { newestDefaultClass } from '../newest-default-class.js';

/** Whether a StorageClass is marked default (storageutil.IsDefaultAnnotation). */
export function isDefaultStorageClass(sc: KubeObject): boolean {
  const a = sc.metadata.annotations;
  return a?.['storageclass.kubernetes.io/is-default-class'] === 'true' || a?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
}

/** The DefaultStorageClass plugin over the StorageClass informer. */
export class DefaultStorageClass implements AdmissionPlugin {
  readonly name = 'DefaultStorageClass';

  constructor(private readonly storageClasses: Informer) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.resource !== 'persistentvolumeclaims' || attrs.group !== '' || attrs.subresource !== '' || !attrs.object) return;
    const pvc = attrs.object as KubeObject & { spec?: { storageClassName?: string | null } };
    if (pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return;
    if (pvc.spec?.storageClassName !== undefined && pvc.spec.storageClassName !== null) return;
    await waitForReady(attrs, [this.storageClasses]);
    const def = newestDefaultClass(this.storageClasses.list(), isDefaultStorageClass);
    if (!def) return;
    pvc.spec = { ...(pvc.spec ?? {}), storageClassName: def.metadata.name ?? '' };
  }
}
