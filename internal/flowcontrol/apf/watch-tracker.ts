/**
 * kube's watch tracker: the open watches per API group, resource, namespace and name, which the
 * mutating work estimator turns into the seats a write's notifications take. A write is
 * interested in the watches of its whole resource, of its namespace and of its object. Pod
 * watches selecting spec.nodeName (the kubelets') are served by the watch cache's node index and
 * reach only their node's pods: as kube's tracker does with that index, they are not counted.
 */
import type { RequestInfo } from '../../request/request-info.js';

/** Whether a pods watch selects one node (kube's builtin spec.nodeName index). */
function selectsNode(fieldSelector: string | null): boolean {
  if (!fieldSelector) return false;
  for (const term of fieldSelector.split(',')) {
    const t = term.trim();
    if (t.startsWith('spec.nodeName=') && !t.startsWith('spec.nodeName!=')) return true;
  }
  return false;
}

const noop = (): void => undefined;

/** Counts open watches per group, resource, namespace and name. */
export class WatchTracker {
  private readonly counts = new Map<string, number>();

  /** Registers a watch (query: its parsed query string); returns its forget (idempotent). */
  register(ri: RequestInfo, query?: URLSearchParams): () => void {
    if (ri.resource === 'pods' && ri.apiGroup === '' && selectsNode(query?.get('fieldSelector') ?? null)) return noop;
    const key = `${ri.apiGroup}/${ri.resource}/${ri.namespace}/${ri.name}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n <= 0) this.counts.delete(key);
      else this.counts.set(key, n);
    };
  }

  /** The watches a write described by ri notifies: of the resource, of its namespace, of the object. */
  interestedWatchCount(ri: RequestInfo): number {
    if (this.counts.size === 0) return 0;
    const base = `${ri.apiGroup}/${ri.resource}/`;
    let n = this.counts.get(`${base}/`) ?? 0;
    if (ri.namespace !== '') n += this.counts.get(`${base}${ri.namespace}/`) ?? 0;
    if (ri.name !== '') n += this.counts.get(`${base}${ri.namespace}/${ri.name}`) ?? 0;
    return n;
  }
}
