/**
 * kube's attemptToOrphanWorker: an owner deleted with the orphan finalizer has its reference
 * removed from every dependent the graph knows, then loses the finalizer (and so goes).
 */
import { hasReason } from '../../apierrors/status-error.js';
import { withoutOwners } from './attempt-to-delete.js';
import type { GraphNode } from './graph.js';
import type { ResourceMapper } from './interface.js';
import { orphanFinalizer } from './interface.js';
import type { GCOperations } from './operations.js';
import type { WorkResult } from './queue.js';

/** Processes one owner of the attempt-to-orphan queue. */
export async function attemptToOrphan(owner: GraphNode, mapper: ResourceMapper, ops: GCOperations, log: (level: number, message: string) => void): Promise<WorkResult> {
  try {
    const drop = new Set([owner.identity.uid]);
    const failures: string[] = [];
    await Promise.all(
      [...owner.dependents].map(async (dep) => {
        const resource = mapper.resourceFor(dep.identity.apiVersion, dep.identity.kind);
        if (!resource) return;
        try {
          await ops.update(resource, dep.identity, (obj) => withoutOwners(obj, drop));
        } catch (err) {
          // A dependent already gone needs nothing.
          if (!hasReason(err, 'NotFound')) failures.push(`orphaning ${dep.toString()} failed, ${(err as Error).message}`);
        }
      }),
    );
    if (failures.length > 0) throw new Error(failures.join('; '));
    log(5, `successfully updated all dependents of owner ${owner.toString()}`);
    const resource = mapper.resourceFor(owner.identity.apiVersion, owner.identity.kind);
    if (resource) await ops.removeFinalizer(resource, owner.identity, orphanFinalizer);
    return 'forget';
  } catch (err) {
    if (hasReason(err, 'NotFound')) return 'forget';
    log(2, `attemptToOrphan ${owner.toString()}: ${(err as Error).message}`);
    return 'requeue';
  }
}
