/**
 * A value inside a document being JSON-patched, held the way gopkg.in/evanphx/json-patch.v4
 * (v4.12.0) holds it: as the JSON it was read from until an operation has to look inside, then as
 * an opened object or array of child nodes. Three things set this apart from plain JSON values and
 * are observable through the library:
 *
 * - A JSON null read from a document or a patch value's members is a nil slot (no node at all),
 *   while a patch value that is itself null is a node with no text, and a copied null is a node
 *   whose text is `null`; each behaves differently under `test`, traversal and copy.
 * - `test` compares scalars by their compact JSON text, not by value: the server's copy of the
 *   object is Go-encoded (`<`, `>`, `&` written as \u003c, \u003e, \u0026), a patch value is the
 *   client's text.
 * - Comparing arrays that hold a null dereferences a nil pointer (a panic in Go).
 */
import { nilDereference, PatchPanic } from './json-patch-error.js';
import { setOwnKey } from '../../collections/own-key.js';

/**
 * Whose JSON text a value was read from: the server's Go encoding of the object (also what a
 * `copy` re-encodes to) or the client's patch body.
 */
export type TextSource = 'server' | 'client';

/** A member or element of an opened node: a node, or null for Go's nil pointer (a JSON null). */
export type Slot = PatchNode | null;

const goEscapes: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** JSON text as Go's encoding/json writes it: compact, with <, >, & and U+2028/9 escaped. */
export function goJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => goEscapes[c] as string);
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go sorts map keys by their UTF-8 bytes when it encodes a map. */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * One value of the document, lazily opened. Opening never changes `raw`; mutations act on the
 * opened members or elements, which the node owns.
 */
export class PatchNode {
  /** The JSON value as read; undefined is Go's nil text, what a patch value of null becomes. */
  readonly raw: unknown;
  /** Whose text `raw` was read from. */
  readonly source: TextSource;
  /** Which view of the node is current, as evanphx's lazyNode.which. */
  shape: 'raw' | 'object' | 'array' = 'raw';
  /** The members once opened as an object; null is Go's nil map (the text was `null`). */
  members: Map<string, Slot> | null = null;
  /** The elements once opened as an array. */
  elements: Slot[] = [];

  constructor(raw: unknown, source: TextSource) {
    this.raw = raw;
    this.source = source;
  }

  /** Opens the node as an object, reusing an earlier opening (evanphx intoDoc); false when its text is no object. */
  openObject(): boolean {
    return this.shape === 'object' || this.readObject();
  }

  /** Opens the node as an array, reusing an earlier opening (evanphx intoAry); false when its text is no array. */
  openArray(): boolean {
    return this.shape === 'array' || this.readArray();
  }

  /** Re-reads the text as an object (evanphx tryDoc); `null` reads as a nil map. */
  readObject(): boolean {
    if (this.raw === undefined) return false;
    if (this.raw === null) {
      this.members = null;
    } else if (isJsonObject(this.raw)) {
      this.members = new Map();
      for (const [k, v] of Object.entries(this.raw)) {
        // An undefined member is not in the JSON the library would read.
        if (v !== undefined) this.members.set(k, v === null ? null : new PatchNode(v, this.source));
      }
    } else {
      return false;
    }
    this.shape = 'object';
    return true;
  }

  /** Re-reads the text as an array (evanphx tryAry); `null` reads as an empty (nil) slice. */
  readArray(): boolean {
    if (this.raw === undefined) return false;
    if (this.raw === null) {
      this.elements = [];
    } else if (Array.isArray(this.raw)) {
      this.elements = this.raw.map((v: unknown) => (v === null || v === undefined ? null : new PatchNode(v, this.source)));
    } else {
      return false;
    }
    this.shape = 'array';
    return true;
  }

  /** The node as a fresh plain JSON value, as Go marshals it (members of opened objects in Go's key order). */
  toValue(): unknown {
    if (this.shape === 'object') {
      if (!this.members) return null;
      const out: Record<string, unknown> = {};
      for (const key of [...this.members.keys()].sort(compareUtf8)) setOwnKey(out, key, slotValue(this.members.get(key) ?? null));
      return out;
    }
    if (this.shape === 'array') return this.elements.map(slotValue);
    return this.raw === undefined ? null : structuredClone(this.raw);
  }

  /** The compact text `test` compares scalars by; null for Go's nil text. */
  compactText(): string | null {
    if (this.raw === undefined) return null;
    return this.source === 'server' ? goJsonText(this.raw) : JSON.stringify(this.raw);
  }
}

/** A slot as a plain JSON value. */
export function slotValue(slot: Slot): unknown {
  return slot === null ? null : slot.toValue();
}

/**
 * What `copy` inserts (evanphx deepCopy): a new node read back from the Go encoding of the slot,
 * and the size in bytes of that encoding, which counts against the accumulated copy limit.
 */
export function copySlot(slot: Slot): { copy: Slot; size: number } {
  if (slot === null) return { copy: null, size: 0 };
  const value = slot.toValue();
  return { copy: new PatchNode(value, 'server'), size: Buffer.byteLength(goJsonText(value)) };
}

/**
 * evanphx's lazyNode.equal: n (the document side) against o. Objects match by member set, arrays
 * element by element, scalars by compact text. May open either node. Throws PatchPanic where the
 * library dereferences a nil slot (a null inside compared arrays).
 */
export function nodesEqual(n: PatchNode, o: PatchNode): boolean {
  if (n.shape === 'raw' && !n.readObject() && !n.readArray()) {
    if (o.shape !== 'raw') return false;
    return n.compactText() === o.compactText();
  }
  if (n.shape === 'object') {
    if (o.shape === 'raw' && !o.readObject()) return false;
    if (o.shape !== 'object') return false;
    const mine = n.members ?? new Map<string, Slot>();
    const theirs = o.members ?? new Map<string, Slot>();
    if (mine.size !== theirs.size) return false;
    for (const [key, v] of mine) {
      if (!theirs.has(key)) return false;
      const ov = theirs.get(key) ?? null;
      if ((v === null) !== (ov === null)) return false;
      if (v !== null && ov !== null && !nodesEqual(v, ov)) return false;
    }
    return true;
  }
  if (o.shape !== 'array' && !o.readArray()) return false;
  if (n.elements.length !== o.elements.length) return false;
  for (let i = 0; i < n.elements.length; i++) {
    const v = n.elements[i] ?? null;
    const ov = o.elements[i] ?? null;
    if (v === null || ov === null) throw new PatchPanic(nilDereference);
    if (!nodesEqual(v, ov)) return false;
  }
  return true;
}

/**
 * evanphx's Equal(a, b) for two client documents given as parsed JSON: structural equality with
 * the library's quirks (`null` equals `{}`, and `[]` equals `null` but not the reverse).
 */
export function jsonDocumentsEqual(a: unknown, b: unknown): boolean {
  return nodesEqual(new PatchNode(a, 'client'), new PatchNode(b, 'client'));
}
