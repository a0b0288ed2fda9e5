/**
 * Picking the default class (kube's storage GetDefaultClass and the ingress class defaulter): of
 * the classes marked default, the newest by creationTimestamp, then the first by name.
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** The newest object isDefault accepts, or undefined. */
export function newestDefaultClass(classes: Iterable<KubeObject>, isDefault: (c: KubeObject) => boolean): KubeObject | undefined {
  let best: KubeObject | undefined;
  let bestTime = 0;
  for (const c of classes) {
    if (!isDefault(c)) continue;
    const t = Date.parse(c.metadata.creationTimestamp ?? '') || 0;
    if (!best || t > bestTime || (t === bestTime && (c.metadata.name ?? '') < (best.metadata.name ?? ''))) {
      best = c;
      bestTime = t;
    }
  }
  return best;
}
