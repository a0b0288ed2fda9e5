/**
 * kubelet's PodConfig merge: each source's complete set replaces that source's pods; a pod's
 * identity is its uid. Within one source a second pod of the same namespace/name is refused
 * (FailedValidation); every pod is annotated with its config.source, and new ones with
 * config.seen. A pod changes when its spec, labels, deletionTimestamp,
 * deletionGracePeriodSeconds or non-local annotations do (podsDifferSemantically); a status-only
 * change just refreshes the stored object.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { EventRecorder, PodSourceName } from '../interface.js';
import { podFullName } from './mirror-pods.js';
import { canonicalJSON, configMirrorAnnotation, configSeenAnnotation, configSourceAnnotation, seenTimestamp } from './config-annotations.js';

const localAnnotations = new Set([configSourceAnnotation, configMirrorAnnotation, configSeenAnnotation]);

function nonLocalAnnotations(pod: KubeObject): Record<string, string> {
  return Object.fromEntries(Object.entries(pod.metadata.annotations ?? {}).filter(([k]) => !localAnnotations.has(k)));
}

/** podsDifferSemantically. */
export function podsDifferSemantically(a: KubeObject, b: KubeObject): boolean {
  const view = (p: KubeObject): string =>
    canonicalJSON({
      spec: p.spec ?? null,
      labels: p.metadata.labels ?? {},
      deletionTimestamp: p.metadata.deletionTimestamp ?? null,
      deletionGracePeriodSeconds: p.metadata.deletionGracePeriodSeconds ?? null,
      annotations: nonLocalAnnotations(p),
    });
  return view(a) !== view(b);
}

/** What one source's new set means against the pods known from it. */
export interface SourceDelta {
  /** Pods not known before (annotated, config.seen set). */
  readonly added: KubeObject[];
  /** Known pods whose content changed semantically (the new object, config.seen kept). */
  readonly updated: KubeObject[];
  /** Known pods whose status alone changed (the new object). */
  readonly refreshed: KubeObject[];
  /** Uids of known pods the source no longer has. */
  readonly removed: string[];
}

/**
 * Compares a source's new set with known (uid -> pod, this source's pods only). Records
 * FailedValidation events for duplicate names; never mutates its inputs.
 */
export function diffSource(source: PodSourceName, pods: readonly KubeObject[], known: ReadonlyMap<string, KubeObject>, events: EventRecorder): SourceDelta {
  const names = new Set<string>();
  const present = new Set<string>();
  const delta = { added: [] as KubeObject[], updated: [] as KubeObject[], refreshed: [] as KubeObject[], removed: [] as string[] };
  for (const original of pods) {
    const name = podFullName(original);
    if (names.has(name)) {
      const ref = `${original.metadata.name}_${original.metadata.namespace}(${original.metadata.uid})`;
      events.event(original, 'Warning', 'FailedValidation', `Error validating pod ${ref} from ${source} due to duplicate pod name "${original.metadata.name}", ignoring`);
      continue;
    }
    names.add(name);
    const uid = original.metadata.uid ?? '';
    present.add(uid);
    const existing = known.get(uid);
    const annotations: Record<string, string> = { ...(original.metadata.annotations ?? {}), [configSourceAnnotation]: source };
    annotations[configSeenAnnotation] = existing?.metadata.annotations?.[configSeenAnnotation] ?? seenTimestamp();
    const pod: KubeObject = { ...original, metadata: { ...original.metadata, annotations } };
    if (!existing) delta.added.push(pod);
    else if (podsDifferSemantically(existing, pod)) delta.updated.push(pod);
    else delta.refreshed.push(pod);
  }
  for (const uid of known.keys()) if (!present.has(uid)) delta.removed.push(uid);
  return delta;
}
