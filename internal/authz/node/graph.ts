/**
 * The Node authorizer's graph (kube's node.Graph): vertices for the objects a node may reach and
 * directed edges that lead towards nodes. Edges derived from a pod bound to a node carry that
 * node as their destination, and every vertex counts its destination edges per node, so the usual
 * question ("does this secret lead to node x?") is one map lookup; chains through persistent
 * volumes fall back to a depth-first walk that never follows an edge destined for another node.
 * Deleting a vertex also deletes neighbours left without edges, so an object only a deleted pod
 * referenced is unknown again. Single-threaded: mutate from informer handlers, read anywhere.
 */

/** The kinds of vertex. */
export type VertexType =
  | 'configmap'
  | 'node'
  | 'pod'
  | 'pv'
  | 'pvc'
  | 'resourceclaim'
  | 'resourceslice'
  | 'secret'
  | 'serviceaccount'
  | 'volumeattachment';

/** One object in the graph; only the graph changes it. */
export class Vertex {
  /** Outgoing edges: target -> the node the edge leads to ('' for an edge without one). */
  readonly out = new Map<Vertex, string>();
  readonly in = new Set<Vertex>();
  /** How many outgoing edges carry each destination node. */
  readonly destinations = new Map<string, number>();

  constructor(
    readonly key: string,
    readonly type: VertexType,
    readonly namespace: string,
    readonly name: string,
  ) {}

  degree(): number {
    return this.out.size + this.in.size;
  }
}

function keyOf(type: VertexType, namespace: string, name: string): string {
  return `${type}\u0000${namespace}\u0000${name}`;
}

function countDestination(v: Vertex, destination: string, delta: number): void {
  if (!destination) return;
  const n = (v.destinations.get(destination) ?? 0) + delta;
  if (n > 0) v.destinations.set(destination, n);
  else v.destinations.delete(destination);
}

/** The answer of hasPathFrom, with the reason kube logs when there is none. */
export interface PathResult {
  readonly found: boolean;
  readonly detail?: string;
}

/** Objects and their relationships to nodes. */
export class Graph {
  private readonly vertices = new Map<string, Vertex>();

  /** How many vertices exist (tests and diagnostics). */
  size(): number {
    return this.vertices.size;
  }

  /** Whether the vertex exists. */
  has(type: VertexType, namespace: string, name: string): boolean {
    return this.vertices.has(keyOf(type, namespace, name));
  }

  /** The vertex of the object, created without edges when new. */
  getOrCreate(type: VertexType, namespace: string, name: string): Vertex {
    const key = keyOf(type, namespace, name);
    let v = this.vertices.get(key);
    if (!v) {
      v = new Vertex(key, type, namespace, name);
      this.vertices.set(key, v);
    }
    return v;
  }

  /** Adds (or replaces) the edge from -> to; destination is the node it leads to, or '' for none. */
  addEdge(from: Vertex, to: Vertex, destination: string): void {
    const previous = from.out.get(to);
    if (previous === destination) return;
    if (previous !== undefined) countDestination(from, previous, -1);
    from.out.set(to, destination);
    to.in.add(from);
    countDestination(from, destination, 1);
  }

  private removeVertex(v: Vertex): void {
    for (const to of v.out.keys()) to.in.delete(v);
    for (const from of v.in) {
      const destination = from.out.get(v);
      from.out.delete(v);
      if (destination !== undefined) countDestination(from, destination, -1);
    }
    v.out.clear();
    v.in.clear();
    v.destinations.clear();
    this.vertices.delete(v.key);
  }

  /** Removes the vertex and every neighbour that has no other edge (kube's deleteVertex). */
  deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.vertices.get(keyOf(type, namespace, name));
    if (!v) return;
    const neighbours = [...v.out.keys(), ...v.in];
    this.removeVertex(v);
    for (const n of neighbours) if (n.degree() === 0 && this.vertices.get(n.key) === n) this.removeVertex(n);
  }

  /** Whether a path leads from the object to the node, following no edge destined for another node. */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): PathResult {
    const node = this.vertices.get(keyOf('node', '', nodeName));
    if (!node) return { found: false, detail: `unknown node '${nodeName}' cannot get ${type} ${namespace}/${name}` };
    const start = this.vertices.get(keyOf(type, namespace, name));
    if (!start) return { found: false, detail: `node '${nodeName}' cannot get unknown ${type} ${namespace}/${name}` };
    if (start.destinations.has(nodeName)) return { found: true };
    const seen = new Set<Vertex>([start]);
    const stack: Vertex[] = [start];
    while (stack.length > 0) {
      const v = stack.pop() as Vertex;
      for (const [to, destination] of v.out) {
        if (destination && destination !== nodeName) continue;
        if (to === node) return { found: true };
        if (!seen.has(to)) {
          seen.add(to);
          stack.push(to);
        }
      }
    }
    return { found: false, detail: `node '${nodeName}' cannot get ${type} ${namespace}/${name}, no relationship to this object was found in the node authorizer graph` };
  }
}
