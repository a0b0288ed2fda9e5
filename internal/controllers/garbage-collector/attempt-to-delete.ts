/**
 * kube's attemptToDeleteItem: looks at one node. A node that does not exist (or is another object
 * now) is deleted from the graph; a node deleting its dependents waits for its blocking ones and
 * then loses its foregroundDeletion finalizer; any other node is classified by its owners: with a
 * solid owner it keeps living (references to absent owners, or to owners deleting in foreground,
 * are removed); with only owners deleting in foreground it is deleted in foreground itself when it
 * has dependents; with every owner absent it is deleted, with the policy its finalizers ask for.
 */
import type { KubeObject, OwnerReference } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { GraphNode } from './graph.js';
import type { GraphBuilder } from './graph-builder.js';
import { foregroundFinalizer, identityOf, orphanFinalizer, ownerIdentity, type GCResource, type ObjectIdentity, type ObjectLookup, type ResourceMapper } from './interface.js';
import type { GCOperations } from './operations.js';
import { NotSyncedError } from './resources.js';
import type { WorkQueue, WorkResult } from './queue.js';

/** Thrown when a kind names no served resource (retried, as kube retries a REST mapping error). */
export class UnknownKindError extends Error {}

/** What the deleter works with. */
export interface AttemptToDeleteDeps {
  readonly builder: GraphBuilder;
  readonly mapper: ResourceMapper;
  readonly lookup: ObjectLookup;
  readonly ops: GCOperations;
  readonly queue: WorkQueue<GraphNode>;
  readonly log: (level: number, message: string) => void;
}

interface Classified {
  readonly solid: OwnerReference[];
  readonly dangling: OwnerReference[];
  readonly waiting: OwnerReference[];
}

/** A cluster-scoped object naming a namespaced owner: reported once, never retried. */
const namespacedOwnerOfClusterScoped = Symbol('namespacedOwnerOfClusterScopedObject');

/** Processes one node of the attempt-to-delete queue. */
export class AttemptToDelete {
  constructor(private readonly deps: AttemptToDeleteDeps) {}

  private resourceOf(apiVersion: string, kind: string): GCResource {
    const r = this.deps.mapper.resourceFor(apiVersion, kind);
    if (!r) throw new UnknownKindError(`unable to get REST mapping for ${apiVersion}/${kind}.`);
    return r;
  }

  /** Runs the node; the queue's verdict. */
  async process(node: GraphNode): Promise<WorkResult> {
    try {
      const result = await this.attempt(node);
      if (result === 'requeue') return 'requeue';
      return 'forget';
    } catch (err) {
      if (hasReason(err, 'NotFound')) {
        // Gone meanwhile: the informer's delete event takes it out of the graph.
        return 'forget';
      }
      const quiet = err instanceof UnknownKindError || err instanceof NotSyncedError || hasReason(err, 'Conflict');
      this.deps.log(quiet ? 5 : 2, `error syncing item ${node.toString()}: ${(err as Error).message}`);
      return 'requeue';
    }
  }

  private async attempt(node: GraphNode): Promise<WorkResult | undefined> {
    if (node.beingDeleted && !node.deletingDependents) return undefined;
    const resource = this.resourceOf(node.identity.apiVersion, node.identity.kind);
    if (resource.namespaced && node.identity.namespace === '') {
      // kube's getObject: a namespaced type with no namespace coordinate, named only by cluster-scoped
      // dependents. Not an absent owner: each such dependent is examined (and reported) instead.
      for (const dep of node.dependents) this.deps.queue.add(dep);
      return undefined;
    }
    const latest = await this.deps.lookup.get(resource, resource.namespaced ? node.identity.namespace : '', node.identity.name);
    if (!latest || latest.metadata.uid !== node.identity.uid) {
      if (!latest && !node.observed && resource.namespaced) await this.reportOwnerElsewhere(node, resource);
      this.deps.log(5, `item ${node.toString()} not found, generating a virtual delete event`);
      this.deps.builder.virtualDelete(node, node.identity);
      return undefined;
    }
    if (!node.observed) {
      // A virtual owner that exists: take its state from the informer's copy.
      this.deps.builder.observe(node, identityOf(latest, resource));
      node.beingDeleted = Boolean(latest.metadata.deletionTimestamp);
      if (node.beingDeleted && latest.metadata.finalizers?.includes(foregroundFinalizer)) node.deletingDependents = true;
      if (node.beingDeleted && !node.deletingDependents) return undefined;
    }
    if (node.deletingDependents) return await this.processDeletingDependents(node, resource);
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return undefined;
    const classified = await this.classify(node, refs);
    if (classified === namespacedOwnerOfClusterScoped) return undefined;
    const { solid, dangling, waiting } = classified;
    this.deps.log(5, `classified references of ${node.toString()}: solid ${solid.length}, dangling ${dangling.length}, waitingForDependentsDeletion ${waiting.length}`);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return undefined;
      // Owners remain: only the references to absent owners and to owners deleting in foreground go.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      await this.deps.ops.update(resource, node.identity, (obj) => withoutOwners(obj, drop));
      return undefined;
    }
    if (waiting.length > 0 && node.dependents.size > 0) {
      for (const dep of node.dependents) {
        if (!dep.deletingDependents) continue;
        // A dependent deleting in foreground too: a cycle could block both, so stop blocking.
        this.deps.log(2, `processing ${node.toString()}: some of its owners and its dependent have FinalizerDeletingDependents, to prevent potential cycle, its ownerReferences are going to be modified to be non-blocking, then the object is going to be deleted with Foreground`);
        await this.deps.ops.update(resource, node.identity, unblockOwners);
        break;
      }
      await this.deps.ops.delete(resource, node.identity, latest.metadata.resourceVersion ?? '', 'Foreground');
      return undefined;
    }
    const finalizers = latest.metadata.finalizers ?? [];
    const policy = finalizers.includes(orphanFinalizer) ? 'Orphan' : finalizers.includes(foregroundFinalizer) ? 'Foreground' : 'Background';
    this.deps.log(2, `deleting ${node.toString()} with propagation policy ${policy}`);
    await this.deps.ops.delete(resource, node.identity, latest.metadata.resourceVersion ?? '', policy);
    return undefined;
  }

  private async processDeletingDependents(node: GraphNode, resource: GCResource): Promise<WorkResult | undefined> {
    const blocking = node.blockingDependents();
    if (blocking.length === 0) {
      this.deps.log(2, `remove DeleteDependents finalizer for item ${node.toString()}`);
      await this.deps.ops.removeFinalizer(resource, node.identity, foregroundFinalizer);
      return undefined;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.deps.queue.add(dep);
    return undefined;
  }

  private async classify(node: GraphNode, refs: readonly OwnerReference[]): Promise<Classified | typeof namespacedOwnerOfClusterScoped> {
    const out: Classified = { solid: [], dangling: [], waiting: [] };
    for (const ref of refs) {
      const verdict = await this.ownerState(node, ref);
      if (verdict === namespacedOwnerOfClusterScoped) return verdict;
      if (verdict === 'dangling') out.dangling.push(ref);
      else if (verdict.metadata.deletionTimestamp && verdict.metadata.finalizers?.includes(foregroundFinalizer)) out.waiting.push(ref);
      else out.solid.push(ref);
    }
    return out;
  }

  /** kube's isDangling: the owner object, or 'dangling' when absent or another object. */
  private async ownerState(node: GraphNode, ref: OwnerReference): Promise<KubeObject | 'dangling' | typeof namespacedOwnerOfClusterScoped> {
    const g = this.deps.builder.graph;
    if (g.isAbsent(ownerIdentity(ref, '')) || g.isAbsent(ownerIdentity(ref, node.identity.namespace))) return 'dangling';
    const resource = this.resourceOf(ref.apiVersion, ref.kind);
    const namespace = resource.namespaced ? node.identity.namespace : '';
    if (node.identity.namespace === '' && resource.namespaced) {
      this.deps.log(2, `item ${node.toString()} is cluster-scoped, but refers to a namespaced owner of type ${ref.apiVersion}/${ref.kind}`);
      this.report(node.identity, ref);
      return namespacedOwnerOfClusterScoped;
    }
    const owner = await this.deps.lookup.get(resource, namespace, ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) {
      g.markAbsent(ownerIdentity(ref, namespace));
      return 'dangling';
    }
    return owner;
  }

  /**
   * A namespaced owner that is not in its dependents' namespace may live in another one: such a
   * reference is invalid, and kube reports it on each dependent (its GC sees every object; Capstan
   * looks for the uid only here, once the owner was not found where it was named).
   */
  private async reportOwnerElsewhere(node: GraphNode, resource: GCResource): Promise<void> {
    let elsewhere: KubeObject | undefined;
    for (const obj of await this.deps.lookup.list(resource)) {
      if (obj.metadata.uid === node.identity.uid) {
        elsewhere = obj;
        break;
      }
    }
    if (!elsewhere) return;
    for (const dep of node.dependents) {
      // Cluster-scoped dependents are reported when their own references are classified.
      if (dep.identity.namespace === '' || dep.identity.namespace === elsewhere.metadata.namespace) continue;
      const ref = dep.owners.find((o) => o.uid === node.identity.uid);
      if (ref) this.report(dep.identity, ref);
    }
  }

  private report(dependent: ObjectIdentity, ref: OwnerReference): void {
    this.deps.ops.reportInvalidOwnerNamespace(dependent, ref);
  }
}

/** obj without the owner references whose uid is in drop. */
export function withoutOwners(obj: KubeObject, drop: ReadonlySet<string>): KubeObject {
  const refs = obj.metadata.ownerReferences ?? [];
  if (!refs.some((r) => drop.has(r.uid))) return obj;
  const kept = refs.filter((r) => !drop.has(r.uid));
  if (kept.length > 0) obj.metadata.ownerReferences = kept;
  else delete obj.metadata.ownerReferences;
  return obj;
}

/** obj with blockOwnerDeletion false on every reference that had it true. */
function unblockOwners(obj: KubeObject): KubeObject {
  for (const r of obj.metadata.ownerReferences ?? []) if (r.blockOwnerDeletion === true) r.blockOwnerDeletion = false;
  return obj;
}
