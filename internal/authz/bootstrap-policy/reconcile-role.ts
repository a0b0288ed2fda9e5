/**
 * kube's role reconciliation (pkg/registry/rbac/reconciliation computeReconciledRole), as its
 * bootstrap hook runs it: the existing role keeps everything it has; the expected labels and
 * annotations are added where missing (existing values win), the expected rules it does not cover
 * are appended, and missing aggregation selectors are added. A role annotated
 * rbac.authorization.kubernetes.io/autoupdate=false is protected: computed, never written.
 */
import { semanticEqual } from '../../registry/core/shared/semantic-equal.js';
import type { KubeObject } from '../../../api/meta/types.js';
import { covers } from '../rbac/covers.js';
import type { ClusterRoleSelector, RoleObject } from '../rbac/types.js';
import type { PolicyRule } from '../rules.js';
import { autoUpdateAnnotation } from './policy.js';

/** What reconciliation does to an object. */
export type ReconcileOperation = 'none' | 'create' | 'update' | 'recreate';

/** The outcome for one role. */
export interface ReconciledRole {
  readonly operation: ReconcileOperation;
  /** autoupdate=false on the existing role: nothing is written whatever operation says. */
  readonly protected: boolean;
  /** The role to write (a new object; existing is never mutated). */
  readonly role: RoleObject;
  readonly missingRules: readonly PolicyRule[];
}

/** merge(expected, existing): the union of the maps, existing values winning. */
export function mergeMaps(expected: Readonly<Record<string, string>> | undefined, existing: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...expected, ...existing };
}

function selectors(role: RoleObject): readonly ClusterRoleSelector[] | undefined {
  const rule = role.aggregationRule;
  return rule ? (rule.clusterRoleSelectors ?? []) : undefined;
}

/** aggregationRuleCovers: the servant selectors the owner does not have. */
function uncoveredSelectors(owner: readonly ClusterRoleSelector[] | undefined, servant: readonly ClusterRoleSelector[] | undefined): ClusterRoleSelector[] {
  if (!servant) return [];
  if (!owner) return [...servant];
  return servant.filter((s) => !owner.some((o) => semanticEqual(o, s)));
}

/**
 * Gives out (a copy of existing) the union of existing's and expected's labels and annotations,
 * existing's values winning; true when that changed anything.
 */
export function mergeMetadata(out: KubeObject, existing: KubeObject, expected: KubeObject): boolean {
  const annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  const labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  if (annotations) out.metadata.annotations = annotations;
  if (labels) out.metadata.labels = labels;
  return !semanticEqual(annotations, existing.metadata.annotations) || !semanticEqual(labels, existing.metadata.labels);
}

/** computeReconciledRole in union mode (extra permissions are kept, as the bootstrap hook asks). */
export function reconcileRole(existing: RoleObject, expected: RoleObject): ReconciledRole {
  const isProtected = existing.metadata.annotations?.[autoUpdateAnnotation] === 'false';
  const role = structuredClone(existing);
  let operation: ReconcileOperation = 'none';

  if (mergeMetadata(role, existing, expected)) operation = 'update';

  const missingRules = covers(existing.rules ?? [], expected.rules ?? []).missing;
  if (missingRules.length > 0) {
    role.rules = [...(existing.rules ?? []), ...missingRules];
    operation = 'update';
  }

  const expectedSelectors = selectors(expected);
  const existingSelectors = selectors(existing);
  const missingSelectors = uncoveredSelectors(existingSelectors, expectedSelectors);
  if (!expectedSelectors && existingSelectors) {
    delete role.aggregationRule;
    operation = 'update';
  } else if (missingSelectors.length > 0) {
    role.aggregationRule = { clusterRoleSelectors: [...(existingSelectors ?? []), ...missingSelectors] };
    operation = 'update';
  }
  return { operation, protected: isProtected, role, missingRules };
}
