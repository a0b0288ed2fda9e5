/**
 * An opened object or array node as the container a JSON patch operation acts on, with
 * gopkg.in/evanphx/json-patch.v4 (v4.12.0) semantics: array keys are parsed like Go's strconv.Atoi,
 * negative indices count from the end (add at "-1" appends), reading a missing object member gives
 * a nil slot rather than an error, and writing to a nil map (a copied null) panics.
 */
import { goQuote } from '../../validation/field-error.js';
import { nilMapWrite, PatchApplyError, PatchPanic } from './json-patch-error.js';
import type { PatchNode, Slot } from './json-patch-node.js';

const int64Max = (1n << 63n) - 1n;
const int64Min = -(1n << 63n);

/** Go's strconv.Atoi: an optional sign and decimal digits within int64, with Go's error texts. */
function atoi(key: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(key)) throw new PatchApplyError(`strconv.Atoi: parsing ${goQuote(key)}: invalid syntax`);
  const n = BigInt(key);
  if (n > int64Max || n < int64Min) throw new PatchApplyError(`strconv.Atoi: parsing ${goQuote(key)}: value out of range`);
  return n;
}

function invalidIndex(idx: bigint): PatchApplyError {
  return new PatchApplyError(`Unable to access invalid index: ${idx}: invalid index referenced`);
}

/** Resolves a possibly negative index against length, rejecting what lies before the start. */
function fromEnd(idx: bigint, length: bigint): bigint {
  if (idx >= 0n) return idx;
  if (idx < -length) throw invalidIndex(idx);
  return idx + length;
}

/** The slot at key (evanphx container.get); throws PatchApplyError for a bad array index. */
export function childOf(node: PatchNode, key: string): Slot {
  if (node.shape === 'object') return node.members?.get(key) ?? null;
  const length = BigInt(node.elements.length);
  const idx = fromEnd(atoi(key), length);
  if (idx >= length) throw invalidIndex(idx);
  return node.elements[Number(idx)] ?? null;
}

/** Replaces the slot at key (evanphx container.set); callers have read the key with childOf first. */
export function setChild(node: PatchNode, key: string, value: Slot): void {
  if (node.shape === 'object') {
    if (!node.members) throw new PatchPanic(nilMapWrite);
    node.members.set(key, value);
    return;
  }
  const idx = fromEnd(atoi(key), BigInt(node.elements.length));
  node.elements[Number(idx)] = value;
}

/** Adds value at key (evanphx container.add): an object member is set, an array element inserted. */
export function addChild(node: PatchNode, key: string, value: Slot): void {
  if (node.shape === 'object') {
    setChild(node, key, value);
    return;
  }
  if (key === '-') {
    node.elements.push(value);
    return;
  }
  let idx: bigint;
  try {
    idx = atoi(key);
  } catch (err) {
    throw new PatchApplyError(`value was not a proper array index: '${key}': ${(err as Error).message}`);
  }
  const size = BigInt(node.elements.length + 1);
  if (idx >= size) throw invalidIndex(idx);
  node.elements.splice(Number(fromEnd(idx, size)), 0, value);
}

/** Removes the slot at key (evanphx container.remove); a missing member or index is an error. */
export function removeChild(node: PatchNode, key: string): void {
  if (node.shape === 'object') {
    if (!node.members?.has(key)) throw new PatchApplyError(`Unable to remove nonexistent key: ${key}: missing value`);
    node.members.delete(key);
    return;
  }
  const length = BigInt(node.elements.length);
  const idx = atoi(key);
  if (idx >= length) throw invalidIndex(idx);
  node.elements.splice(Number(fromEnd(idx, length)), 1);
}
