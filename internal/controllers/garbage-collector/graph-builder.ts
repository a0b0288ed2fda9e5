/**
 * kube's GraphBuilder: turns the informers' events into graph changes and work. An object with
 * owner references joins the graph and is linked to its owners (an owner not seen yet becomes a
 * virtual node, checked by attempt-to-delete); a deletion that starts with the orphan finalizer
 * queues the owner for orphaning, one with foregroundDeletion queues its dependents (and itself)
 * for deletion; an object that goes away leaves the graph and its dependents are re-examined.
 * Runs synchronously in the informer handlers, so changes apply in event order.
 */
import type { KubeObject, OwnerReference } from '../../../api/meta/types.js';
import { DependencyGraph, GraphNode } from './graph.js';
import { foregroundFinalizer, identityOf, orphanFinalizer, type GCResource, type ObjectIdentity } from './interface.js';
import type { WorkQueue } from './queue.js';

/** Reports a Warning event about an object (the collector's event recorder). */
export type InvalidOwnerReporter = (dependent: GraphNode, owner: OwnerReference) => void;

function hasFinalizer(obj: KubeObject, f: string): boolean {
  return obj.metadata.finalizers?.includes(f) ?? false;
}

/** Whether obj's deletion waits, with finalizer f, and old (if any) was not yet in that state. */
function deletionStartsWith(old: KubeObject | undefined, obj: KubeObject, f: string): boolean {
  if (!obj.metadata.deletionTimestamp || !hasFinalizer(obj, f)) return false;
  return !old || !old.metadata.deletionTimestamp || !hasFinalizer(old, f);
}

/** Whether ref names the coordinates (apiVersion, kind, name) of id. */
function refMatches(ref: OwnerReference, id: ObjectIdentity): boolean {
  return ref.apiVersion === id.apiVersion && ref.kind === id.kind && ref.name === id.name;
}

/** The graph and the events that change it. */
export class GraphBuilder {
  constructor(
    readonly graph: DependencyGraph,
    private readonly attemptToDelete: WorkQueue<GraphNode>,
    private readonly attemptToOrphan: WorkQueue<GraphNode>,
    private readonly reportInvalidNamespace: InvalidOwnerReporter,
  ) {}

  /** An object was added or changed (old: its previous state, when known). */
  upsert(resource: GCResource, obj: KubeObject, old?: KubeObject): void {
    const uid = obj.metadata.uid;
    if (!uid) return;
    let node = this.graph.get(uid);
    const owners = obj.metadata.ownerReferences ?? [];
    const gcDeleting = Boolean(obj.metadata.deletionTimestamp) && (hasFinalizer(obj, orphanFinalizer) || hasFinalizer(obj, foregroundFinalizer));
    // The cheap exit for the great majority of writes: no part in ownership.
    if (!node && owners.length === 0 && !gcDeleting) return;
    const identity = identityOf(obj, resource);
    if (!node) {
      node = new GraphNode(identity, true);
      node.owners = owners.map((o) => ({ ...o }));
      node.beingDeleted = Boolean(obj.metadata.deletionTimestamp);
      const created = this.graph.insert(node);
      for (const virtual of created) this.attemptToDelete.add(virtual);
      this.checkOwnerNamespaces(node, owners, created);
      this.processTransitions(undefined, obj, node);
      return;
    }
    if (!node.observed) this.observe(node, identity);
    const previous = node.owners;
    node.owners = owners.map((o) => ({ ...o }));
    const removed = previous.filter((p) => !owners.some((o) => o.uid === p.uid));
    const added = owners.filter((o) => !previous.some((p) => p.uid === o.uid));
    if (removed.length > 0) this.graph.unlinkOwners(node, removed);
    if (added.length > 0) {
      const created = this.graph.linkOwners(node, added);
      for (const virtual of created) this.attemptToDelete.add(virtual);
      this.checkOwnerNamespaces(node, added, created);
    }
    // An owner waiting on this dependent is looked at again when the dependent stops blocking it
    // (its reference went away or lost blockOwnerDeletion).
    for (const p of previous) {
      if (p.blockOwnerDeletion !== true) continue;
      const now = owners.find((o) => o.uid === p.uid);
      if (now?.blockOwnerDeletion === true) continue;
      const owner = this.graph.get(p.uid);
      if (owner?.deletingDependents) this.attemptToDelete.add(owner);
    }
    node.beingDeleted = Boolean(obj.metadata.deletionTimestamp);
    this.processTransitions(old, obj, node);
    this.graph.dropIfIdle(node);
  }

  /** An object was deleted (observed through an informer). */
  deleted(obj: KubeObject): void {
    const uid = obj.metadata.uid;
    const node = uid ? this.graph.get(uid) : undefined;
    if (!node) return;
    this.removeNode(node, node.identity);
  }

  /**
   * A virtual delete: the collector found that identity does not exist. A virtual node goes, its
   * dependents re-examined; an observed node whose identity differs stays.
   */
  virtualDelete(node: GraphNode, identity: ObjectIdentity): void {
    if (this.graph.get(identity.uid) !== node) return;
    if (node.observed && !sameIdentity(node.identity, identity)) {
      this.graph.markAbsent(identity);
      for (const dep of node.dependents) if (dep.owners.some((o) => o.uid === identity.uid && refMatches(o, identity))) this.attemptToDelete.add(dep);
      return;
    }
    this.removeNode(node, identity);
  }

  /** Marks a virtual node observed with the identity its object has (found by attempt-to-delete). */
  observe(node: GraphNode, identity: ObjectIdentity): void {
    if (!sameIdentity(node.identity, identity)) {
      for (const dep of node.dependents) {
        if (identity.namespace && dep.identity.namespace !== identity.namespace) {
          const ref = dep.owners.find((o) => o.uid === identity.uid);
          if (ref) this.reportInvalidNamespace(dep, ref);
        }
        this.attemptToDelete.add(dep);
      }
      node.identity = identity;
    }
    node.observed = true;
  }

  private removeNode(node: GraphNode, identity: ObjectIdentity): void {
    this.graph.remove(node);
    if (node.dependents.size > 0) this.graph.markAbsent(identity);
    for (const dep of node.dependents) this.attemptToDelete.add(dep);
    for (const ref of node.owners) {
      const owner = this.graph.get(ref.uid);
      if (owner?.deletingDependents) this.attemptToDelete.add(owner);
    }
  }

  /**
   * kube's addDependentToOwners checks: a namespaced owner seen in another namespace is an invalid
   * reference (reported, and the dependent re-examined); a reference whose coordinates disagree
   * with the owner seen, or a virtual cluster-scoped owner named from a namespace, is re-examined.
   */
  private checkOwnerNamespaces(node: GraphNode, owners: readonly OwnerReference[], created: readonly GraphNode[]): void {
    let suspect = false;
    for (const ref of owners) {
      const owner = this.graph.get(ref.uid);
      if (!owner || created.includes(owner)) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== node.identity.namespace) {
        if (owner.observed) this.reportInvalidNamespace(node, ref);
        suspect = true;
      } else if (!refMatches(ref, owner.identity)) {
        suspect = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== node.identity.namespace && !owner.observed) {
        suspect = true;
      }
    }
    if (suspect) this.attemptToDelete.add(node);
  }

  private processTransitions(old: KubeObject | undefined, obj: KubeObject, node: GraphNode): void {
    if (deletionStartsWith(old, obj, orphanFinalizer)) {
      this.attemptToOrphan.add(node);
      return;
    }
    if (deletionStartsWith(old, obj, foregroundFinalizer)) {
      node.deletingDependents = true;
      for (const dep of node.dependents) this.attemptToDelete.add(dep);
      this.attemptToDelete.add(node);
    }
  }
}

function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.uid === b.uid && a.namespace === b.namespace && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion;
}
