/**
 * kube's binding reconciliation (computeReconciledRoleBinding), as the bootstrap hook runs it: a
 * binding whose roleRef differs is recreated as expected; otherwise the expected labels and
 * annotations are added where missing and the missing subjects appended, keeping the ones an
 * administrator added. autoupdate=false protects the binding.
 */
import type { BindingObject, Subject } from '../rbac/types.js';
import { autoUpdateAnnotation } from './policy.js';
import { mergeMetadata, type ReconcileOperation } from './reconcile-role.js';

/** The outcome for one binding. */
export interface ReconciledBinding {
  readonly operation: ReconcileOperation;
  readonly protected: boolean;
  /** The binding to write (a new object). */
  readonly binding: BindingObject;
  readonly missingSubjects: readonly Subject[];
}

function sameSubject(a: Subject, b: Subject): boolean {
  return a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}

function sameRoleRef(a: BindingObject, b: BindingObject): boolean {
  return a.roleRef.apiGroup === b.roleRef.apiGroup && a.roleRef.kind === b.roleRef.kind && a.roleRef.name === b.roleRef.name;
}

/** computeReconciledRoleBinding in union mode (extra subjects are kept). */
export function reconcileBinding(existing: BindingObject, expected: BindingObject): ReconciledBinding {
  const isProtected = existing.metadata.annotations?.[autoUpdateAnnotation] === 'false';
  if (!sameRoleRef(existing, expected)) {
    return { operation: 'recreate', protected: isProtected, binding: structuredClone(expected), missingSubjects: expected.subjects ?? [] };
  }
  const binding = structuredClone(existing);
  let operation: ReconcileOperation = 'none';
  if (mergeMetadata(binding, existing, expected)) operation = 'update';

  const have = existing.subjects ?? [];
  const missingSubjects = (expected.subjects ?? []).filter((s) => !have.some((h) => sameSubject(h, s)));
  if (missingSubjects.length > 0) {
    binding.subjects = [...have, ...structuredClone(missingSubjects)];
    operation = 'update';
  }
  return { operation, protected: isProtected, binding, missingSubjects };
}
