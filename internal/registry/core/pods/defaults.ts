/**
 * kube's defaulting of core/v1 Pods (SetObjectDefaults_Pod): the registration's defaulter, run on
 * every decoded Pod body (create, update, patch, status and ephemeral-container writes).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultPod } from '../shared/pod-defaults.js';

/** Defaults a decoded Pod in place. Mutates obj; idempotent. */
export function defaultPodObject(obj: KubeObject): void {
  defaultPod(obj as Record<string, unknown>);
}
