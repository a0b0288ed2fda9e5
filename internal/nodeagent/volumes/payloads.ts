/**
 * The files of configMap, secret, downwardAPI and projected volumes, as kubelet's volume plugins
 * compute them: every key (or only the listed items) with defaultMode 0644 unless an item or the
 * volume says otherwise; a missing non-optional object or key fails the mount with kubelet's message.
 */
import type { DataMap, ConfigObjects } from '../pods/config-objects.js';
import { fieldRefValue, type RuntimeFields } from '../pods/field-ref.js';
import { resourceFieldValue } from '../pods/resources.js';
import { findContainer } from '../pods/env.js';
import type { DownwardAPIVolumeFile, KeyToPath, Pod } from '../pods/types.js';
import type { PayloadFile } from './atomic-writer.js';

/** kubelet's default file mode for these volumes (0644). */
export const defaultFileMode = 0o644;

/** The files of a ConfigMap or Secret's data (items: only those keys, at their paths). */
export function keysPayload(kind: 'configmap' | 'secret', data: DataMap | undefined, items: readonly KeyToPath[] | undefined, mode: number, optional: boolean): Map<string, PayloadFile> {
  const out = new Map<string, PayloadFile>();
  if (!data) return out;
  if (!items || items.length === 0) {
    for (const [k, v] of data) out.set(k, { data: v, mode });
    return out;
  }
  for (const item of items) {
    const v = data.get(item.key);
    if (v === undefined) {
      if (optional) continue;
      throw new Error(kind === 'configmap' ? `configmap references non-existent config key: ${item.key}` : `references non-existent secret key: ${item.key}`);
    }
    out.set(item.path, { data: v, mode: item.mode ?? mode });
  }
  return out;
}

/** Fetches a ConfigMap or Secret for a volume; undefined when missing and optional, else throws kubelet's message. */
export async function fetchForVolume(objects: ConfigObjects, kind: 'configmap' | 'secret', namespace: string, name: string, optional: boolean): Promise<DataMap | undefined> {
  const data = kind === 'configmap' ? await objects.configMap(namespace, name) : await objects.secret(namespace, name);
  if (!data && !optional) throw new Error(`${kind} "${name}" not found`);
  return data;
}

/** The files of downward API items. */
export function downwardPayload(pod: Pod, items: readonly DownwardAPIVolumeFile[], mode: number, rt: RuntimeFields): Map<string, PayloadFile> {
  const out = new Map<string, PayloadFile>();
  for (const item of items) {
    let value = '';
    if (item.fieldRef) value = fieldRefValue(pod, item.fieldRef.fieldPath, rt);
    else if (item.resourceFieldRef) value = resourceFieldValue(item.resourceFieldRef, findContainer(pod, item.resourceFieldRef.containerName ?? ''));
    out.set(item.path, { data: Buffer.from(value, 'utf8'), mode: item.mode ?? mode });
  }
  return out;
}
