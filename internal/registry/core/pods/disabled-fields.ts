/**
 * Pod fields of alpha features whose gate is off, dropped on write as kube's dropDisabledFields
 * drops them (pkg/api/pod): a field is dropped unless the stored object already uses it, so an
 * object written while the gate was on keeps it through updates.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { FeatureGates } from '../../../features/interface.js';

type Spec = { resources?: unknown } | undefined;

/** Drops from obj what its gates disable (old: the stored object on update). Mutates obj. */
export function dropDisabledPodFields(obj: KubeObject, old: KubeObject | undefined, gates: FeatureGates): void {
  const spec = (obj as { spec?: Spec }).spec;
  const oldSpec = (old as { spec?: Spec } | undefined)?.spec;
  // PodLevelResources (alpha, off in 1.33): spec.resources.
  if (spec && spec.resources !== undefined && !gates.enabled('PodLevelResources') && oldSpec?.resources === undefined) delete spec.resources;
}
