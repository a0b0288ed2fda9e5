/**
 * The dependency graph (kube's GraphBuilder.uidToNode): one node per object that has owner
 * references, is named as an owner, or is being deleted with a GC finalizer. A node named only as
 * an owner and not yet seen is "virtual": its identity comes from the reference, and the
 * collector checks whether it exists. Objects with no part in ownership have no node, so the
 * graph costs nothing for them.
 */
import type { OwnerReference } from '../../../api/meta/types.js';
import { describeIdentity, type ObjectIdentity } from './interface.js';

/** One object in the graph. */
export class GraphNode {
  /** The references the object carries (empty for a virtual node). */
  owners: OwnerReference[] = [];
  readonly dependents = new Set<GraphNode>();
  /** Seen through an informer (not only named by a dependent). */
  observed: boolean;
  /** deletionTimestamp is set. */
  beingDeleted = false;
  /** Being deleted with the foregroundDeletion finalizer: its blocking dependents go first. */
  deletingDependents = false;

  constructor(
    public identity: ObjectIdentity,
    observed: boolean,
  ) {
    this.observed = observed;
  }

  /** Dependents whose reference to this node has blockOwnerDeletion. */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents) {
      if (dep.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true)) out.push(dep);
    }
    return out;
  }

  /** "[apps/v1/Deployment, namespace: ns, name: web, uid: 123]". */
  toString(): string {
    return describeIdentity(this.identity);
  }
}

/** Nodes by uid, and the owners known to be absent. */
export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  /** Owners verified absent (kube's absentOwnerCache), keyed by their coordinates; bounded. */
  private readonly absent = new Map<string, true>();

  constructor(private readonly absentLimit = 500) {}

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Every node (the rare sweeps: a resource's informer relisted). */
  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  get size(): number {
    return this.nodes.size;
  }

  /** Adds node; links it to its owners, creating virtual owner nodes. Returns the virtual owners created. */
  insert(node: GraphNode): GraphNode[] {
    this.nodes.set(node.identity.uid, node);
    return this.linkOwners(node, node.owners);
  }

  /** Records node as a dependent of each of owners; returns the virtual owner nodes it had to create. */
  linkOwners(node: GraphNode, owners: readonly OwnerReference[]): GraphNode[] {
    const created: GraphNode[] = [];
    for (const ref of owners) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        owner = new GraphNode({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: node.identity.namespace }, false);
        this.nodes.set(ref.uid, owner);
        created.push(owner);
      }
      owner.dependents.add(node);
    }
    return created;
  }

  /** Removes node as a dependent of owners; a virtual owner left with no dependents leaves the graph. */
  unlinkOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    for (const ref of owners) {
      const owner = this.nodes.get(ref.uid);
      if (!owner) continue;
      owner.dependents.delete(node);
      if (!owner.observed && owner.dependents.size === 0) this.nodes.delete(ref.uid);
    }
  }

  /** Takes node out of the graph (its dependents keep their references and are re-examined by the caller). */
  remove(node: GraphNode): void {
    if (this.nodes.get(node.identity.uid) === node) this.nodes.delete(node.identity.uid);
    this.unlinkOwners(node, node.owners);
  }

  /** Drops a node nothing refers to any more and that plays no part in ownership. */
  dropIfIdle(node: GraphNode): void {
    if (node.dependents.size === 0 && node.owners.length === 0 && !node.beingDeleted) this.remove(node);
  }

  private static absentKey(id: ObjectIdentity): string {
    return `${id.apiVersion}/${id.kind}/${id.namespace}/${id.name}/${id.uid}`;
  }

  /** Marks an owner identity as verified absent. */
  markAbsent(id: ObjectIdentity): void {
    const key = DependencyGraph.absentKey(id);
    this.absent.delete(key);
    this.absent.set(key, true);
    if (this.absent.size > this.absentLimit) this.absent.delete(this.absent.keys().next().value as string);
  }

  /** Whether an owner identity was verified absent. */
  isAbsent(id: ObjectIdentity): boolean {
    return this.absent.has(DependencyGraph.absentKey(id));
  }
}
