/**
 * Creates the namespaces every cluster has (default, kube-system, kube-public, kube-node-lease)
 * at start and whenever one goes missing, as kube-apiserver's system namespaces controller does.
 */
import { hasReason } from '../apierrors/status-error.js';
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';

/** The namespaces the server keeps in existence. */
export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** Ensures the system namespaces exist; resolves once they all do (retrying while storage is unavailable). */
export async function ensureSystemNamespaces(namespaces: RestStorage, log: Logger, signal?: AbortSignal): Promise<void> {
  const create = namespaces.create?.bind(namespaces);
  const get = namespaces.get?.bind(namespaces);
  if (!create || !get) throw new Error('namespaces storage cannot create');
  for (;;) {
    try {
      for (const name of systemNamespaces) {
        try {
          await get(internalContext({ verb: 'get', resource: 'namespaces', name }), name, { resourceVersion: '' });
          continue;
        } catch (err) {
          if (!hasReason(err, 'NotFound')) throw err;
        }
        try {
          await create(internalContext({ verb: 'create', resource: 'namespaces' }), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { dryRun: false });
          log.v(1, `created system namespace ${name}`);
        } catch (err) {
          if (!hasReason(err, 'AlreadyExists')) throw err;
        }
      }
      return;
    } catch (err) {
      if (signal?.aborted) return;
      log.warn(`creating system namespaces failed, retrying: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Re-checks the system namespaces every interval until stopped. */
export function keepSystemNamespaces(namespaces: RestStorage, log: Logger, intervalMs = 60_000): () => void {
  const timer = setInterval(() => void ensureSystemNamespaces(namespaces, log).catch(() => undefined), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
