/**
 * kube's NonStructuralSchema condition controller: a CRD one of whose versions has a schema that is
 * not structural (possible for CRDs written as apiextensions/v1beta1 before 1.22, which the
 * storage still holds, and kept through updates that leave the schema alone) carries
 * NonStructuralSchema True, reason "Violations", with the violations as message; the condition goes
 * once the schemas are structural. Each generation is judged once per
 * server, so servers of different versions cannot fight over the message.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { crdAsV1 } from '../../../registry/apiextensions/customresourcedefinitions/conversion.js';
import { findCondition, NonStructuralSchema, removeCondition, setCondition, type CrdCondition } from '../conditions.js';
import type { CrdControllerDeps, RunningController, StructuralViolations } from '../interface.js';
import { runCrdQueue } from '../run-queue.js';

/**
 * The NonStructuralSchema condition a CRD (stored form) should carry, or undefined for none: True
 * with the violations, or, as kube leaves it, Unknown when a schema could not be checked at all.
 */
export function nonStructuralCondition(crd: KubeObject, violations: StructuralViolations): Omit<CrdCondition, 'lastTransitionTime'> | undefined {
  const finding = violations(crdAsV1(crd));
  if (!finding) return undefined;
  return { type: NonStructuralSchema, status: finding.reason === 'Violations' ? 'True' : 'Unknown', reason: finding.reason, message: finding.message };
}

/** The CRD with its condition brought up to date, or undefined when it already is. Mutates crd. */
export function applyNonStructuralCondition(crd: KubeObject, violations: StructuralViolations): KubeObject | undefined {
  const cond = nonStructuralCondition(crd, violations);
  const old = findCondition(crd, NonStructuralSchema);
  if (!cond && !old) return undefined;
  if (cond && old && old.status === cond.status && old.reason === cond.reason && old.message === cond.message) return undefined;
  if (cond) setCondition(crd, cond);
  else removeCondition(crd, NonStructuralSchema);
  return crd;
}

/** Starts the controller; violations is the structural schema check. */
export function startNonStructuralSchemaController(deps: CrdControllerDeps, violations: StructuralViolations): RunningController {
  const lastSeenGeneration = new Map<string, number>();
  const sync = async (name: string): Promise<void> => {
    const cached = deps.informer.get(name);
    if (!cached) return;
    const seen = lastSeenGeneration.get(name);
    if (seen !== undefined && (cached.metadata.generation ?? 0) <= seen) return;
    if (!applyNonStructuralCondition(structuredClone(cached), violations)) return;
    const result = await deps.updateStatus(name, (crd) => applyNonStructuralCondition(crd, violations));
    if (result?.wrote) lastSeenGeneration.set(name, result.object.metadata.generation ?? 0);
  };
  const queue = runCrdQueue('nonstructuralschema-condition-controller', deps, sync, {
    deleted: (crd) => {
      lastSeenGeneration.delete(crd.metadata.name ?? '');
      return false;
    },
  });
  return { stop: () => queue.stop() };
}
