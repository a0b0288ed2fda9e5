/**
 * The warning kube's workload strategies give when a name that ends up in Pod names and
 * hostnames is not a DNS-1123 label.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { isDNS1123Label } from '../../validation/label-values.js';

/** The "a DNS label is recommended" warning for obj's name, or none. */
export function podNameWarnings(obj: KubeObject): string[] {
  const msgs = isDNS1123Label(obj.metadata.name ?? '');
  if (msgs.length === 0) return [];
  return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}
