/**
 * VolumeAttachment rules (kube's pkg/registry/storage/volumeattachment): an attacher (a CSI
 * driver name), a node name, exactly one of persistentVolumeName and inlineVolumeSpec, a spec
 * that never changes, and a status written only through volumeattachments/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain } from '../../../validation/label-values.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateCSIDriverName } from '../shared/validation.js';

/** ValidateVolumeAttachment without metadata. Never mutates. */
export function validateVolumeAttachment(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateCSIDriverName(stringAt(spec, 'attacher'), 'spec.attacher');
  const node = stringAt(spec, 'nodeName');
  if (!node) errs.push(required('spec.nodeName', ''));
  else errs.push(...isDNS1123Subdomain(node).map((m) => invalid('spec.nodeName', node, m)));
  const source = objectAt(spec, 'source');
  const pvName = stringAt(source, 'persistentVolumeName');
  const inline = source?.inlineVolumeSpec !== undefined && source.inlineVolumeSpec !== null;
  if (pvName && inline) errs.push(forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (!pvName && !inline) errs.push(required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  return errs;
}

/** The VolumeAttachment strategy. */
export const volumeAttachmentStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  // VolumeAttachmentStatus.attached has no omitempty.
  initialStatus: () => ({ attached: false }),
  validate: validateVolumeAttachment,
  validateUpdate: (obj, old) => [
    ...validateVolumeAttachment(obj),
    ...(semanticEqual(obj.spec, old.spec) ? [] : [invalid('spec', obj.spec ?? null, 'field is immutable')]),
  ],
});

/** volumeattachments/status: only status changes. */
export const volumeAttachmentStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};
