/**
 * Deployment rules (kube's pkg/registry/apps/deployment): status starts empty and is written only
 * through deployments/status, generation grows with every spec or annotation change, the selector
 * is immutable in apps/v1, and deleting a deployment deletes its ReplicaSets by default.
 */
import type { StatusStrategy, Strategy } from '../../generic/strategy.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { keepStatusOf, takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { validateDeployment, validateDeploymentStatus } from './validation.js';

/** The Deployment strategy. */
export const deploymentStrategy = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: true,
  hasStatus: true,
  nameValidation: 'subdomain',
  defaultGarbageCollectionPolicy: 'DeleteDependents',
  selectableFields: { extra: [], style: 'meta' },
  prepareForCreate(_ctx, obj) {
    obj.status = {};
  },
  validate(_ctx, obj) {
    return validateDeployment(obj);
  },
  prepareForUpdate(_ctx, obj, old) {
    keepStatusOf(obj, old);
    // Annotations are copied to ReplicaSets, so changing them is a new generation too.
    if (!semanticEqual(obj.metadata.annotations, old.metadata.annotations)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validateUpdate(_ctx, obj, old) {
    // apps/v1 (unlike the removed beta groups) never lets the selector change.
    return [...validateDeployment(obj), ...validateImmutableField(asObject(obj.spec)?.selector, asObject(old.spec)?.selector, 'spec.selector')];
  },
} satisfies Strategy;

/** deployments/status (kube's deploymentStatusStrategy): spec and labels stay as stored. */
export const deploymentStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
    if (old.metadata.labels === undefined) delete obj.metadata.labels;
    else obj.metadata.labels = structuredClone(old.metadata.labels);
  },
  validateUpdate(_ctx, obj, old) {
    return validateDeploymentStatus(obj, old);
  },
};
