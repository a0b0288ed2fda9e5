/**
 * kube's defaulting of pod volumes (SetDefaults_Volume and the volume-source defaulters, both the
 * hand-written ones and those generated from +default markers): a volume naming no source is an
 * emptyDir, file modes default to 0644, hostPath type to "", projected tokens last an hour, and
 * the legacy plugins get their documented defaults.
 */
import { childObject, isEmptyString, isNil, objectsIn } from './defaults-values.js';
import { defaultObjectFieldSelector } from './container-defaults.js';
import { defaultResourceList } from './resource-list-defaults.js';

/** The file mode secret, configMap, downwardAPI and projected volumes default to (0644). */
export const defaultVolumeFileMode = 420;

/** Every volume source a v1 Volume may carry (all pointers in Go). */
export const volumeSourceKeys: readonly string[] = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral', 'image',
];

function defaultMode(source: Record<string, unknown> | undefined): void {
  if (source && isNil(source.defaultMode)) source.defaultMode = defaultVolumeFileMode;
}

function setIfEmpty(source: Record<string, unknown> | undefined, key: string, value: string): void {
  if (source && isEmptyString(source[key])) source[key] = value;
}

function setIfNil(source: Record<string, unknown> | undefined, key: string, value: unknown): void {
  if (source && isNil(source[key])) source[key] = value;
}

function defaultDownwardAPIItems(source: Record<string, unknown> | undefined): void {
  for (const item of objectsIn(source, 'items')) defaultObjectFieldSelector(childObject(item, 'fieldRef'));
}

function defaultProjected(projected: Record<string, unknown> | undefined): void {
  if (!projected) return;
  defaultMode(projected);
  for (const source of objectsIn(projected, 'sources')) {
    defaultDownwardAPIItems(childObject(source, 'downwardAPI'));
    setIfNil(childObject(source, 'serviceAccountToken'), 'expirationSeconds', 3600);
  }
}

/** Defaults volume v in place. Mutates v; idempotent. */
export function defaultVolume(v: Record<string, unknown>): void {
  if (volumeSourceKeys.every((k) => isNil(v[k]))) v.emptyDir = {};
  setIfNil(childObject(v, 'hostPath'), 'type', '');
  defaultMode(childObject(v, 'secret'));
  defaultMode(childObject(v, 'configMap'));
  const downwardAPI = childObject(v, 'downwardAPI');
  defaultMode(downwardAPI);
  defaultDownwardAPIItems(downwardAPI);
  defaultProjected(childObject(v, 'projected'));
  setIfEmpty(childObject(v, 'iscsi'), 'iscsiInterface', 'default');
  const rbd = childObject(v, 'rbd');
  setIfEmpty(rbd, 'pool', 'rbd');
  setIfEmpty(rbd, 'user', 'admin');
  setIfEmpty(rbd, 'keyring', '/etc/ceph/keyring');
  const azureDisk = childObject(v, 'azureDisk');
  setIfNil(azureDisk, 'cachingMode', 'ReadWrite');
  setIfNil(azureDisk, 'kind', 'Shared');
  setIfNil(azureDisk, 'fsType', 'ext4');
  setIfNil(azureDisk, 'readOnly', false);
  const scaleIO = childObject(v, 'scaleIO');
  setIfEmpty(scaleIO, 'storageMode', 'ThinProvisioned');
  setIfEmpty(scaleIO, 'fsType', 'xfs');
  const claimSpec = childObject(childObject(childObject(v, 'ephemeral'), 'volumeClaimTemplate'), 'spec');
  if (claimSpec) {
    setIfNil(claimSpec, 'volumeMode', 'Filesystem');
    const resources = childObject(claimSpec, 'resources');
    defaultResourceList(resources?.limits);
    defaultResourceList(resources?.requests);
  }
}
