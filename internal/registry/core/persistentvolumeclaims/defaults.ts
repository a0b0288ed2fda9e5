/**
 * core/v1 PersistentVolumeClaim defaulting (SetDefaults_PersistentVolumeClaim and
 * SetDefaults_PersistentVolumeClaimSpec): status.phase Pending, spec.volumeMode Filesystem, and
 * canonical resource quantities. Also applied to StatefulSet volume claim templates.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isEmptyString, isNil } from '../shared/defaults-values.js';
import { defaultResourceList } from '../shared/resource-list-defaults.js';

/** Defaults a claim in place. Mutates obj; idempotent. */
export function defaultPersistentVolumeClaim(obj: KubeObject): void {
  if (isNil(obj.spec)) obj.spec = {};
  const spec = childObject(obj, 'spec');
  if (spec) {
    if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem';
    const resources = childObject(spec, 'resources');
    defaultResourceList(resources?.limits);
    defaultResourceList(resources?.requests);
  }
  if (isNil(obj.status)) obj.status = {};
  const status = childObject(obj, 'status');
  if (status && isEmptyString(status.phase)) status.phase = 'Pending';
}
