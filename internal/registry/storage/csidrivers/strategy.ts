/**
 * CSIDriver rules (kube's pkg/registry/storage/csidriver): the name is a CSI driver name, the
 * spec's booleans are set (by defaulting), lifecycle modes and fsGroupPolicy are known, and
 * attachRequired and volumeLifecycleModes never change. The alpha
 * nodeAllocatableUpdatePeriodSeconds is dropped unless already in use.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { arrayAt, asObject, objectAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateCSIDriverName } from '../shared/validation.js';

const lifecycleModes = ['Ephemeral', 'Persistent'];
const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];

/** ValidateCSIDriver without metadata. Never mutates. */
export function validateCSIDriver(obj: KubeObject): FieldError[] {
  const errs = validateCSIDriverName(obj.metadata.name ?? '', 'name');
  const spec = asObject(obj.spec);
  for (const f of ['attachRequired', 'podInfoOnMount', 'storageCapacity', 'requiresRepublish']) {
    if (spec?.[f] === undefined || spec[f] === null) errs.push(required(`spec.${f}`, ''));
  }
  arrayAt(spec, 'volumeLifecycleModes').forEach((m, i) => {
    if (typeof m !== 'string' || !lifecycleModes.includes(m)) errs.push(notSupported(indexPath('spec.volumeLifecycleModes', i), m, lifecycleModes));
  });
  const fsGroup = spec?.fsGroupPolicy;
  if (fsGroup !== undefined && fsGroup !== null && (typeof fsGroup !== 'string' || !fsGroupPolicies.includes(fsGroup))) {
    errs.push(notSupported('spec.fsGroupPolicy', fsGroup, fsGroupPolicies));
  }
  arrayAt(spec, 'tokenRequests').forEach((raw, i) => {
    const exp = asObject(raw)?.expirationSeconds;
    if (typeof exp === 'number' && exp < 600) errs.push(invalid(`${indexPath('spec.tokenRequests', i)}.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
  });
  return errs;
}

/** ValidateCSIDriverUpdate without metadata. */
export function validateCSIDriverUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const oldSpec = asObject(old.spec);
  return [
    ...validateCSIDriver(obj),
    ...validateImmutableField(spec?.attachRequired, oldSpec?.attachRequired, 'spec.attachedRequired'),
    ...validateImmutableField(spec?.volumeLifecycleModes, oldSpec?.volumeLifecycleModes, 'spec.volumeLifecycleModes'),
  ];
}

function dropDisabled(obj: KubeObject, old: KubeObject | undefined): void {
  const spec = asObject(obj.spec);
  const oldSpec = objectAt(asObject(old ?? {}), 'spec');
  if (spec && (oldSpec?.nodeAllocatableUpdatePeriodSeconds === undefined || oldSpec.nodeAllocatableUpdatePeriodSeconds === null)) {
    delete spec.nodeAllocatableUpdatePeriodSeconds;
  }
}

/** The CSIDriver strategy. */
export const csiDriverStrategy = defineStrategy({
  namespaced: false,
  prepareForCreate: (_ctx, obj) => dropDisabled(obj, undefined),
  prepareForUpdate: (_ctx, obj, old) => dropDisabled(obj, old),
  validate: validateCSIDriver,
  validateUpdate: validateCSIDriverUpdate,
});

/**
 * storage/v1 SetDefaults_CSIDriver: attachRequired true, podInfoOnMount, storageCapacity,
 * requiresRepublish and seLinuxMount false, fsGroupPolicy ReadWriteOnceWithFSType and
 * volumeLifecycleModes [Persistent]. Mutates obj.
 */
export function defaultCSIDriver(obj: KubeObject): void {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  const spec = asObject(obj.spec);
  if (!spec) return;
  const set = (k: string, v: unknown): void => {
    if (spec[k] === undefined || spec[k] === null) spec[k] = v;
  };
  set('attachRequired', true);
  set('podInfoOnMount', false);
  set('storageCapacity', false);
  set('fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
  set('requiresRepublish', false);
  set('seLinuxMount', false);
}
