/**
 * Job rules (kube's pkg/registry/batch/job): a selector generated from the job's uid unless
 * manualSelector, the template labelled to match; status reset on create and written only
 * through jobs/status; generation tracking; dependents orphaned by default in batch/v1; and the
 * status.successful field selector.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SelectableFields, StatusStrategy } from '../../generic/strategy.js';
import { asObject, objectAt, type JsonObject } from '../../core/shared/json-value.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { podNameWarnings } from '../../shared/name-warnings.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import {
  controllerUidLabel,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
  validateJob,
  validateJobStatus,
  validateJobUpdate,
} from './validation.js';

/** batch/v1's field label conversion for Job: status.successful besides metadata. */
export const jobSelectableFields: SelectableFields = {
  extra: ['status.successful'],
  style: 'core',
  values: (obj) => ({ 'status.successful': String(asObject(obj.status)?.succeeded ?? 0) }),
};

function ensure(o: JsonObject, key: string): JsonObject {
  const v = asObject(o[key]);
  if (v) return v;
  const created: JsonObject = {};
  o[key] = created;
  return created;
}

/**
 * generateSelector: template labels job-name and controller-uid (legacy and prefixed) unless the
 * user set them, and the controller-uid label in spec.selector.matchLabels. Mutates obj.
 */
function generateSelector(obj: KubeObject, name: string, uid: string): void {
  const spec = ensure(obj as JsonObject, 'spec');
  const template = ensure(spec, 'template');
  const meta = ensure(template, 'metadata');
  const labels = ensure(meta, 'labels') as Record<string, string>;
  for (const key of [legacyJobNameLabel, jobNameLabel]) if (!(key in labels)) labels[key] = name;
  for (const key of [legacyControllerUidLabel, controllerUidLabel]) if (!(key in labels)) labels[key] = uid;
  const selector = ensure(spec, 'selector');
  const matchLabels = ensure(selector, 'matchLabels') as Record<string, string>;
  if (!(controllerUidLabel in matchLabels)) matchLabels[controllerUidLabel] = uid;
}

/** The Job strategy. */
export const jobStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  defaultGarbageCollectionPolicy: 'OrphanDependents',
  selectableFields: jobSelectableFields,
  prepareForCreate(_ctx, obj) {
    const { name = '', uid = '' } = obj.metadata;
    if (asObject(obj.spec)?.manualSelector !== true) generateSelector(obj, name, uid);
    // kube defaults a label-less job's labels from the template again when reading it back.
    const templateLabels = objectAt(objectAt(objectAt(asObject(obj.spec), 'template'), 'metadata'), 'labels');
    if (templateLabels && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...(templateLabels as Record<string, string>) };
  },
  validate: (obj) => validateJob(obj),
  validateUpdate: (obj, old) => validateJobUpdate(obj, old),
  warningsOnCreate: (_ctx, obj) => podNameWarnings(obj),
});

/** jobs/status: only status changes. */
export const jobStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateJobStatus(obj);
  },
};
