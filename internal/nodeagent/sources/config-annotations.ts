/**
 * kubelet's config annotations on pods (kubernetes.io/config.source, .hash, .seen, .mirror) and the
 * canonical JSON that static pod hashes are taken over. Kept apart from static-pod.ts so the pod
 * manager does not load the API server's pod validation unless a static pod source is configured.
 */
/** Where kubelet got a pod: file, http or api. */
export const configSourceAnnotation = 'kubernetes.io/config.source';
/** A static pod's hash (its uid). */
export const configHashAnnotation = 'kubernetes.io/config.hash';
/** When kubelet first saw the pod (RFC 3339, nanoseconds). */
export const configSeenAnnotation = 'kubernetes.io/config.seen';
/** On a mirror pod: the hash of the static pod it mirrors. */
export const configMirrorAnnotation = 'kubernetes.io/config.mirror';

/** Serializes value with object keys sorted, so equal content hashes equally. */
export function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** kubelet's config.seen value: RFC 3339 with fractional seconds, trailing zeros dropped (Go's RFC3339Nano). */
export function seenTimestamp(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}
