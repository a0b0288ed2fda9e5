/** kube's defaulting of core/v1 Secrets (SetDefaults_Secret): an untyped secret is Opaque. */
import type { KubeObject } from '../../../../api/meta/types.js';
import { isEmptyString } from '../shared/defaults-values.js';

/** Defaults a decoded Secret in place. Mutates obj; idempotent. */
export function defaultSecret(obj: KubeObject): void {
  if (isEmptyString(obj.type)) obj.type = 'Opaque';
}
