/**
 * DaemonSet rules (kube's pkg/registry/apps/daemonset): status reset on create and written only
 * through daemonsets/status; generation tracking; the template generation apps/v1 keeps in the
 * deprecated.daemonset.template.generation annotation (1 on create, +1 whenever the template
 * changes, never set by clients); an immutable selector; dependents deleted by default.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { podNameWarnings } from '../../shared/name-warnings.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { templateGenerationAnnotation, validateDaemonSet, validateDaemonSetStatus } from './validation.js';

function templateGeneration(obj: KubeObject): number {
  const n = Number.parseInt(obj.metadata.annotations?.[templateGenerationAnnotation] ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
}

function setTemplateGeneration(obj: KubeObject, n: number): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [templateGenerationAnnotation]: String(n) };
}

/** The DaemonSet strategy. */
export const daemonSetStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  // The four scheduling counts have no omitempty in apps/v1 DaemonSetStatus.
  initialStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
  defaultGarbageCollectionPolicy: 'DeleteDependents',
  prepareForCreate(_ctx, obj) {
    setTemplateGeneration(obj, Math.max(templateGeneration(obj), 1));
  },
  prepareForUpdate(_ctx, obj, old) {
    const previous = templateGeneration(old);
    const changed = !semanticEqual(asObject(obj.spec)?.template, asObject(old.spec)?.template);
    setTemplateGeneration(obj, changed ? previous + 1 : previous);
  },
  validate: (obj) => validateDaemonSet(obj),
  validateUpdate: (obj, old) => [
    ...validateDaemonSet(obj),
    ...validateImmutableField(asObject(obj.spec)?.selector, asObject(old.spec)?.selector, 'spec.selector'),
  ],
  warningsOnCreate: (_ctx, obj) => podNameWarnings(obj),
});

/** daemonsets/status: only status changes. */
export const daemonSetStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateDaemonSetStatus(obj);
  },
};
