/**
 * The persistentvolumes resource of core/v1, stored under /persistentvolumes/<name>, with
 * persistentvolumes/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isEmptyString, isNil } from '../shared/defaults-values.js';
import { defaultResourceList } from '../shared/resource-list-defaults.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { persistentVolumeStatusStrategy, persistentVolumeStrategy } from './strategy.js';

function setIfEmpty(o: Record<string, unknown> | undefined, key: string, value: unknown): void {
  if (o && isEmptyString(o[key])) o[key] = value;
}

/**
 * core/v1 SetObjectDefaults_PersistentVolume: reclaim policy Retain, volumeMode Filesystem,
 * status.phase Pending, canonical capacity, and the volume-source defaults (hostPath type "",
 * iSCSI interface, RBD pool/user/keyring, Azure disk and ScaleIO settings). Mutates obj.
 */
export function defaultPersistentVolume(obj: KubeObject): void {
  if (isNil(obj.spec)) obj.spec = {};
  const spec = childObject(obj, 'spec');
  if (spec) {
    if (isEmptyString(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain';
    if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem';
    defaultResourceList(spec.capacity);
    const hostPath = childObject(spec, 'hostPath');
    if (hostPath && isNil(hostPath.type)) hostPath.type = '';
    setIfEmpty(childObject(spec, 'iscsi'), 'iscsiInterface', 'default');
    const rbd = childObject(spec, 'rbd');
    setIfEmpty(rbd, 'pool', 'rbd');
    setIfEmpty(rbd, 'user', 'admin');
    setIfEmpty(rbd, 'keyring', '/etc/ceph/keyring');
    const azureDisk = childObject(spec, 'azureDisk');
    if (azureDisk) {
      if (isNil(azureDisk.cachingMode)) azureDisk.cachingMode = 'ReadWrite';
      if (isNil(azureDisk.kind)) azureDisk.kind = 'Shared';
      if (isNil(azureDisk.fsType)) azureDisk.fsType = 'ext4';
      if (isNil(azureDisk.readOnly)) azureDisk.readOnly = false;
    }
    const scaleIO = childObject(spec, 'scaleIO');
    setIfEmpty(scaleIO, 'storageMode', 'ThinProvisioned');
    setIfEmpty(scaleIO, 'fsType', 'xfs');
  }
  if (isNil(obj.status)) obj.status = {};
  setIfEmpty(childObject(obj, 'status'), 'phase', 'Pending');
}

/** Builds the core/v1 persistentvolumes registration. */
export const persistentVolumesModule = defineResourceModule({
  group: '',
  resource: 'persistentvolumes',
  kind: 'PersistentVolume',
  keyPrefix: '/persistentvolumes',
  storageVersion: 'v1',
  strategy: persistentVolumeStrategy,
  versions: [{ version: 'v1', defaulter: defaultPersistentVolume }],
  status: persistentVolumeStatusStrategy,
});
