/**
 * Times as the node agent writes them (metav1.Time at seconds, metav1.MicroTime at microseconds)
 * and an abortable sleep for its loops.
 */

/** metav1.Time of ms: RFC 3339 at second precision ("2026-11-27T15:04:05Z"). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime of ms: six fractional digits, as kube writes a Lease's renewTime. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Resolves after ms, or at once when signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
