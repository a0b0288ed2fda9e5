/**
 * Field sets (fieldpath.Set): a tree of path elements where each node lists its member elements
 * (fields in the set) and the child nodes that have members below them. Membership of a parent
 * never implies membership of its children nor the reverse. Operations return new sets and never
 * mutate their operands; only insert mutates the receiver.
 */
import { comparePathElements, pathElementsEqual, type Path, type PathElement } from './path-element.js';
import { findField, type Schema, type TypeRef } from './schema.js';

/** A child node: the element and the subset below it. */
export interface SetNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePathElements(get(items[mid]!), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const self = (pe: PathElement) => pe;
const nodeElement = (n: SetNode) => n.pe;

/** A set of field paths. */
export class FieldSet {
  /** Sorted member elements of this node. */
  members: PathElement[];
  /** Sorted child nodes. */
  children: SetNode[];

  constructor(members: PathElement[] = [], children: SetNode[] = []) {
    this.members = members;
    this.children = children;
  }

  /** A set holding the given paths. */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds one path (its parents are not added). The empty path is ignored. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]!);
    s.insertMember(path[path.length - 1]!);
  }

  /** Adds a member element to this node. */
  insertMember(pe: PathElement): void {
    const loc = search(this.members, pe, self);
    if (loc < this.members.length && pathElementsEqual(this.members[loc]!, pe)) return;
    this.members.splice(loc, 0, pe);
  }

  /** The child node for pe, created when missing. */
  descend(pe: PathElement): FieldSet {
    const loc = search(this.children, pe, nodeElement);
    if (loc < this.children.length && pathElementsEqual(this.children[loc]!.pe, pe)) return this.children[loc]!.set;
    const set = new FieldSet();
    this.children.splice(loc, 0, { pe, set });
    return set;
  }

  /** True when pe is a member of this node. */
  hasMember(pe: PathElement): boolean {
    const loc = search(this.members, pe, self);
    return loc < this.members.length && pathElementsEqual(this.members[loc]!, pe);
  }

  /** The child node for pe, if any. */
  child(pe: PathElement): FieldSet | undefined {
    const loc = search(this.children, pe, nodeElement);
    return loc < this.children.length && pathElementsEqual(this.children[loc]!.pe, pe) ? this.children[loc]!.set : undefined;
  }

  /** True when the path is a member. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      s = s.child(path[i]!);
      if (!s) return false;
    }
    return s.hasMember(path[path.length - 1]!);
  }

  /** True when no path is a member anywhere below. */
  empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty());
  }

  /** The number of members anywhere below. */
  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members, self, (a) => a, 'union');
    const children: SetNode[] = [];
    let i = 0;
    let j = 0;
    const a = this.children;
    const b = other.children;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) children.push(a[i++]!);
      else if (c > 0) children.push(b[j++]!);
      else {
        children.push({ pe: a[i]!.pe, set: a[i]!.set.union(b[j]!.set) });
        i++;
        j++;
      }
    }
    while (i < a.length) children.push(a[i++]!);
    while (j < b.length) children.push(b[j++]!);
    return new FieldSet(members, children);
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members, self, (a) => a, 'intersection');
    const children: SetNode[] = [];
    let i = 0;
    let j = 0;
    const a = this.children;
    const b = other.children;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) i++;
      else if (c > 0) j++;
      else {
        const res = a[i]!.set.intersection(b[j]!.set);
        if (!res.empty()) children.push({ pe: a[i]!.pe, set: res });
        i++;
        j++;
      }
    }
    return new FieldSet(members, children);
  }

  /** Paths in this set and not in other (a parent minus its child is still the parent). */
  difference(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members, self, (a) => a, 'difference');
    const children: SetNode[] = [];
    let i = 0;
    let j = 0;
    const a = this.children;
    const b = other.children;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) children.push(a[i++]!);
      else if (c > 0) j++;
      else {
        const diff = a[i]!.set.difference(b[j]!.set);
        if (!diff.empty()) children.push({ pe: a[i]!.pe, set: diff });
        i++;
        j++;
      }
    }
    while (i < a.length) children.push(a[i++]!);
    return new FieldSet(members, children);
  }

  /** Like difference, but a member of other also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members, self, (a) => a, 'difference');
    const children: SetNode[] = [];
    let i = 0;
    let j = 0;
    const a = this.children;
    const b = other.children;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) {
        if (!other.hasMember(a[i]!.pe)) children.push(a[i]!);
        i++;
      } else if (c > 0) j++;
      else {
        if (!other.hasMember(a[i]!.pe)) {
          const diff = a[i]!.set.recursiveDifference(b[j]!.set);
          if (!diff.empty()) children.push({ pe: a[i]!.pe, set: diff });
        }
        i++;
        j++;
      }
    }
    for (; i < a.length; i++) if (!other.hasMember(a[i]!.pe)) children.push(a[i]!);
    return new FieldSet(members, children);
  }

  /** The set below one child element (empty when there is none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  /** Only the leaves: members that have no child node at the same element. */
  leaves(): FieldSet {
    const members = this.members.filter((m) => !this.child(m));
    return new FieldSet(
      members,
      this.children.map((c) => ({ pe: c.pe, set: c.set.leaves() })),
    );
  }

  /** Adds, as members, every named struct field that has children (maps' own keys are not named fields). */
  ensureNamedFieldsAreMembers(schema: Schema, tr: TypeRef | undefined): FieldSet {
    const atom = schema.resolve(tr) ?? {};
    const members = [...this.members];
    const out = new FieldSet(members);
    for (const node of this.children) {
      if (node.pe.kind === 'field' && atom.map && findField(atom.map, node.pe.name)) out.insertMember(node.pe);
    }
    out.children = this.children.map((node) => {
      let childType: TypeRef | undefined;
      if (node.pe.kind === 'field' && atom.map) childType = findField(atom.map, node.pe.name)?.type ?? atom.map.elementType;
      else if (node.pe.kind === 'key' && atom.list) childType = atom.list.elementType;
      return { pe: node.pe, set: node.set.ensureNamedFieldsAreMembers(schema, childType) };
    });
    return out;
  }

  /** Keeps only the paths that match the filter (see FieldFilter). */
  filter(f: FieldFilter | undefined): FieldSet {
    return f ? f(this) : this;
  }

  /** Visits every member path, members of a node before its children (preorder). */
  iterate(fn: (path: Path) => void, prefix: PathElement[] = []): void {
    for (const m of this.members) fn([...prefix, m]);
    for (const c of this.children) c.set.iterate(fn, [...prefix, c.pe]);
  }

  /** Every member path, in iteration order. */
  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  /** True when both sets have exactly the same structure. */
  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (!pathElementsEqual(this.members[i]!, other.members[i]!)) return false;
    for (let i = 0; i < this.children.length; i++) {
      if (!pathElementsEqual(this.children[i]!.pe, other.children[i]!.pe)) return false;
      if (!this.children[i]!.set.equals(other.children[i]!.set)) return false;
    }
    return true;
  }
}

/** A filter over field sets (fieldpath.Filter). */
export type FieldFilter = (set: FieldSet) => FieldSet;

/** fieldpath.NewExcludeSetFilter: removes the given paths and everything below them. */
export function excludeSetFilter(exclude: FieldSet): FieldFilter {
  return (set) => set.recursiveDifference(exclude);
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], get: (t: T) => PathElement, keep: (t: T) => T, op: 'union' | 'intersection' | 'difference'): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(get(a[i]!), get(b[j]!));
    if (c < 0) {
      if (op !== 'intersection') out.push(keep(a[i]!));
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(keep(b[j]!));
      j++;
    } else {
      if (op !== 'difference') out.push(keep(a[i]!));
      i++;
      j++;
    }
  }
  if (op !== 'intersection') while (i < a.length) out.push(keep(a[i++]!));
  if (op === 'union') while (j < b.length) out.push(keep(b[j++]!));
  return out;
}
