/**
 * CustomResourceDefinition status conditions as kube's apihelpers handle them (FindCRDCondition,
 * SetCRDCondition, RemoveCRDCondition, IsCRDConditionTrue, IsCRDConditionEquivalent), on CRDs in
 * any form (the stored v1beta1 and v1 share the status shape).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { metaTime } from '../../registry/generic/object-meta.js';

/** One entry of status.conditions. */
export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The condition types the apiextensions controllers write. */
export const NamesAccepted = 'NamesAccepted';
export const Established = 'Established';
export const Terminating = 'Terminating';
export const NonStructuralSchema = 'NonStructuralSchema';

function conditionsOf(crd: KubeObject): CrdCondition[] {
  const status = crd.status as { conditions?: unknown } | undefined;
  return Array.isArray(status?.conditions) ? (status.conditions as CrdCondition[]) : [];
}

/** The condition of that type, or undefined. Never mutates. */
export function findCondition(crd: KubeObject, type: string): CrdCondition | undefined {
  return conditionsOf(crd).find((c) => c.type === type);
}

/** Whether the condition of that type is present with status True. */
export function isConditionTrue(crd: KubeObject, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** kube's IsCRDConditionEquivalent: same type, status, reason and message (times aside). */
export function conditionEquivalent(a: CrdCondition | undefined, b: CrdCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
}

/**
 * Sets a condition (kube's SetCRDCondition): appended when new; otherwise reason and message are
 * replaced and lastTransitionTime moves only when the status changes. Mutates crd.
 */
export function setCondition(crd: KubeObject, cond: Omit<CrdCondition, 'lastTransitionTime'>): void {
  const status = (crd.status ??= {}) as { conditions?: CrdCondition[] };
  const conditions = Array.isArray(status.conditions) ? status.conditions : (status.conditions = []);
  const now = metaTime();
  const i = conditions.findIndex((c) => c.type === cond.type);
  const existing = conditions[i];
  if (!existing) {
    conditions.push(ordered({ ...cond, lastTransitionTime: now }));
    return;
  }
  const moved = existing.status !== cond.status || !existing.lastTransitionTime;
  conditions[i] = ordered({ ...cond, lastTransitionTime: moved ? now : (existing.lastTransitionTime as string) });
}

/** Removes the condition of that type, if any. Mutates crd. */
export function removeCondition(crd: KubeObject, type: string): void {
  const status = crd.status as { conditions?: CrdCondition[] } | undefined;
  if (!status || !Array.isArray(status.conditions)) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
}

/** The field order kube's JSON encoding gives a condition, without empty optional fields. */
function ordered(c: CrdCondition): CrdCondition {
  const out: CrdCondition = { type: c.type, status: c.status };
  if (c.lastTransitionTime) out.lastTransitionTime = c.lastTransitionTime;
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  return out;
}
