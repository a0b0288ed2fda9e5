/**
 * The quota evaluators by group/resource (kube's pkg/quota/v1/evaluator/core NewEvaluators plus
 * the object counters created on demand), and the resources quota never looks at.
 */
import type { QuotaEvaluator } from './interface.js';
import { newObjectCountEvaluator } from './object-count.js';
import { newPersistentVolumeClaimEvaluator } from './persistent-volume-claims.js';
import { newPodEvaluator } from './pods.js';
import { newServiceEvaluator } from './services.js';

/** Virtual resources and events, which quota ignores (kube's DefaultIgnoredResources). */
const ignoredResources = new Set([
  'bindings.',
  'componentstatuses.',
  'tokenreviews.authentication.k8s.io',
  'selfsubjectreviews.authentication.k8s.io',
  'subjectaccessreviews.authorization.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectrulesreviews.authorization.k8s.io',
  'events.',
  'events.events.k8s.io',
]);

/** Whether quota ignores group/resource. */
export function isIgnoredResource(group: string, resource: string): boolean {
  return ignoredResources.has(`${resource}.${group}`);
}

/** The evaluators of one server: the static ones, and object counters added as resources are seen. */
export class EvaluatorRegistry {
  private readonly byKey = new Map<string, QuotaEvaluator>();

  constructor(now: () => number = Date.now) {
    for (const e of [
      newPodEvaluator(now),
      newServiceEvaluator(),
      newPersistentVolumeClaimEvaluator(),
      newObjectCountEvaluator('', 'configmaps', 'configmaps'),
      newObjectCountEvaluator('', 'resourcequotas', 'resourcequotas'),
      newObjectCountEvaluator('', 'replicationcontrollers', 'replicationcontrollers'),
      newObjectCountEvaluator('', 'secrets', 'secrets'),
    ]) {
      this.byKey.set(`${e.resource}.${e.group}`, e);
    }
  }

  /** The evaluator of group/resource, if one exists yet. */
  get(group: string, resource: string): QuotaEvaluator | undefined {
    return this.byKey.get(`${resource}.${group}`);
  }

  /** The evaluator of group/resource, creating an object counter when there is none. */
  getOrCreate(group: string, resource: string): QuotaEvaluator {
    const key = `${resource}.${group}`;
    let e = this.byKey.get(key);
    if (!e) {
      e = newObjectCountEvaluator(group, resource);
      this.byKey.set(key, e);
    }
    return e;
  }

  /** Every evaluator. */
  list(): IterableIterator<QuotaEvaluator> {
    return this.byKey.values();
  }
}
