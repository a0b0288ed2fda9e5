/** kube's defaulting of core/v1 Endpoints (SetDefaults_Endpoints): every subset port's protocol is TCP unless set. */
import type { KubeObject } from '../../../../api/meta/types.js';
import { isEmptyString, objectsIn } from '../shared/defaults-values.js';

/** Defaults decoded Endpoints in place. Mutates obj; idempotent. */
export function defaultEndpoints(obj: KubeObject): void {
  for (const subset of objectsIn(obj as Record<string, unknown>, 'subsets')) {
    for (const port of objectsIn(subset, 'ports')) if (isEmptyString(port.protocol)) port.protocol = 'TCP';
  }
}
