/**
 * The FieldsV1 form of a field set, as kube writes `metadata.managedFields[].fieldsV1`: a JSON
 * object keyed by serialized path elements (`f:`, `k:`, `v:`, `i:`) in element order, where a
 * node that is a member and also has children carries `".": {}` as its first key (kube's own
 * apply integration tests compare the served bytes against `{".":{},"f:image":{},...}`).
 */
import { FieldSet } from './field-set.js';
import { comparePathElements, deserializePathElement, serializePathElement, UnknownPathElementTypeError } from './path-element.js';

/** A FieldsV1 object. */
export type FieldsV1 = { [key: string]: FieldsV1 };

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = includeSelf && (set.members.length > 0 || set.children.length > 0) ? { '.': {} } : {};
  let mi = 0;
  let ci = 0;
  const { members, children } = set;
  while (mi < members.length || ci < children.length) {
    const c = mi >= members.length ? 1 : ci >= children.length ? -1 : comparePathElements(members[mi]!, children[ci]!.pe);
    if (c < 0) {
      out[serializePathElement(members[mi++]!)] = {};
    } else if (c > 0) {
      out[serializePathElement(children[ci]!.pe)] = emit(children[ci]!.set, false);
      ci++;
    } else {
      out[serializePathElement(children[ci]!.pe)] = emit(children[ci]!.set, true);
      mi++;
      ci++;
    }
  }
  return out;
}

/** Set.ToJSON: the FieldsV1 object of a set (key insertion order is kube's byte order). */
export function setToFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

/** The FieldsV1 JSON text kube stores for a set. */
export function setToFieldsV1Text(set: FieldSet): string {
  return JSON.stringify(setToFieldsV1(set));
}

function read(obj: unknown): { children?: FieldSet; isMember: boolean } {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('FieldsV1 nodes must be JSON objects');
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, value] of Object.entries(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe;
    try {
      pe = deserializePathElement(key);
    } catch (err) {
      // Elements of a future type are dropped, as kube drops what it does not understand.
      if (err instanceof UnknownPathElementTypeError) continue;
      throw new Error(`parsing key as path element: ${(err as Error).message}`);
    }
    const sub = read(value);
    if (sub.isMember) (children ??= new FieldSet()).insertMember(pe);
    if (sub.children) {
      children ??= new FieldSet();
      const node = children.descend(pe);
      node.members = sub.children.members;
      node.children = sub.children.children;
    }
  }
  if (!children) isMember = true;
  return children ? { children, isMember } : { isMember };
}

/** Set.FromJSON: the set a FieldsV1 object (or its JSON text) describes; throws on malformed input. */
export function fieldsV1ToSet(fields: unknown): FieldSet {
  const obj = typeof fields === 'string' ? (JSON.parse(fields) as unknown) : fields;
  return read(obj ?? {}).children ?? new FieldSet();
}
