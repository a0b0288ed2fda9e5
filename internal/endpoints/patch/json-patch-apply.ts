/**
 * Applies a decoded JSON patch as gopkg.in/evanphx/json-patch.v4 (v4.12.0) Patch.Apply does, the
 * library kube-apiserver 1.33 uses, with its error texts and its departures from RFC 6902:
 *
 * - negative array indices count from the end ("/a/-1" adds at the end, removes the last);
 * - `replace` of a missing object member adds it; `replace` of the root with a scalar or null
 *   changes nothing;
 * - `test` of a missing member against null passes;
 * - a path without a leading slash is read from its first slash on ("a/b" acts as "/b"), and a
 *   path without any slash names nothing;
 * - `copy` counts the bytes it adds against a limit (kube sets 3 MiB);
 * - an empty document (undefined here) comes back empty without error.
 *
 * fast-json-patch cannot be configured into these rules, so only its RFC 6901 unescaping is used.
 */
import fastJsonPatch from 'fast-json-patch';
import { addChild, childOf, removeChild, setChild } from './json-patch-container.js';
import { goJsonKind, nilDereference, PatchApplyError, PatchPanic } from './json-patch-error.js';
import { copySlot, nodesEqual, PatchNode, type Slot } from './json-patch-node.js';

/** How an application is bounded. */
export interface ApplyOptions {
  /** The most bytes `copy` operations may add in total (evanphx AccumulatedCopySizeLimit); 0 is no limit. */
  readonly accumulatedCopySizeLimit: number;
}

/** One decoded operation: any JSON object, read field by field as the library does. */
export type RawOperation = Readonly<Record<string, unknown>>;

interface PatchState {
  root: PatchNode;
  copiedBytes: number;
  readonly options: ApplyOptions;
}

/**
 * Applies ops to doc in order and returns the patched document as a fresh value; doc is never
 * mutated. Throws PatchApplyError with the library's text for the first operation that fails, or
 * PatchPanic where the library would panic.
 */
export function applyPatchOperations(doc: unknown, ops: readonly RawOperation[], options: ApplyOptions): unknown {
  if (doc === undefined) return undefined;
  const root = new PatchNode(doc, 'server');
  if (!(Array.isArray(doc) ? root.openArray() : root.openObject())) {
    throw new PatchApplyError(`json: cannot unmarshal ${goJsonKind(doc)} into Go value of type jsonpatch.partialDoc`);
  }
  const state: PatchState = { root, copiedBytes: 0, options };
  for (const op of ops) applyOperation(state, op);
  return state.root.toValue();
}

function applyOperation(state: PatchState, op: RawOperation): void {
  const kind = operationKind(op);
  switch (kind) {
    case 'add':
      return add(state, op);
    case 'remove':
      return remove(state, op);
    case 'replace':
      return replace(state, op);
    case 'move':
      return move(state, op);
    case 'test':
      return test(state, op);
    case 'copy':
      return copy(state, op);
    default:
      throw new PatchApplyError(`Unexpected kind: ${kind}`);
  }
}

/** The op field, or "unknown" when it is missing, null or not a string. */
function operationKind(op: RawOperation): string {
  return typeof op.op === 'string' ? op.op : 'unknown';
}

/** The path or from field; an absent or null field and a non-string are errors with Go's texts. */
function pointerField(op: RawOperation, field: 'path' | 'from'): string {
  const value = op[field];
  if (value === undefined || value === null) {
    throw new PatchApplyError(field === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value');
  }
  if (typeof value !== 'string') throw new PatchApplyError(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type string`);
  return value;
}

/** The value field as a node; null when absent (Go's nil node), a node without text when JSON null. */
function operationValue(op: RawOperation): Slot {
  if (!Object.hasOwn(op, 'value')) return null;
  return new PatchNode(op.value === null ? undefined : op.value, 'client');
}

/** Runs fn, prefixing a PatchApplyError's text with context as the library wraps errors. */
function wrapped<T>(context: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PatchApplyError) throw new PatchApplyError(`${context}: ${err.message}`);
    throw err;
  }
}

/** Runs fn, replacing a PatchApplyError by the library's fixed text for the failure. */
function replaced<T>(message: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PatchApplyError) throw new PatchApplyError(message);
    throw err;
  }
}

/**
 * The container a pointer's last token lives in and that token (evanphx findObject); undefined
 * when a token before it names nothing, or names a scalar.
 */
function findContainer(root: PatchNode, path: string): { node: PatchNode; key: string } | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let node = root;
  for (const token of tokens.slice(1, -1)) {
    let next: Slot;
    try {
      next = childOf(node, fastJsonPatch.unescapePathComponent(token));
    } catch (err) {
      if (err instanceof PatchApplyError) return undefined;
      throw err;
    }
    if (next === null) return undefined;
    // A null that a patch value put there has no text to look at: Go dereferences nil.
    if (next.raw === undefined) throw new PatchPanic(nilDereference);
    if (!(Array.isArray(next.raw) ? next.openArray() : next.openObject())) return undefined;
    node = next;
  }
  return { node, key: fastJsonPatch.unescapePathComponent(tokens[tokens.length - 1] as string) };
}

function add(state: PatchState, op: RawOperation): void {
  const path = replaced('add operation failed to decode path: missing value', () => pointerField(op, 'path'));
  const target = findContainer(state.root, path);
  if (!target) throw new PatchApplyError(`add operation does not apply: doc is missing path: "${path}": missing value`);
  wrapped(`error in add for path: '${path}'`, () => addChild(target.node, target.key, operationValue(op)));
}

function remove(state: PatchState, op: RawOperation): void {
  const path = replaced('remove operation failed to decode path: missing value', () => pointerField(op, 'path'));
  const target = findContainer(state.root, path);
  if (!target) throw new PatchApplyError(`remove operation does not apply: doc is missing path: "${path}": missing value`);
  wrapped(`error in remove for path: '${path}'`, () => removeChild(target.node, target.key));
}

function replace(state: PatchState, op: RawOperation): void {
  const path = wrapped('replace operation failed to decode path', () => pointerField(op, 'path'));
  if (path === '') {
    const value = operationValue(op);
    if (value === null) throw new PatchPanic(nilDereference);
    // Anything but an object or array leaves the document as it was: the library wraps a nil error.
    if (value.readObject() || value.readArray()) state.root = value;
    return;
  }
  const target = findContainer(state.root, path);
  if (!target) throw new PatchApplyError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
  replaced(`replace operation does not apply: doc is missing key: ${path}: missing value`, () => childOf(target.node, target.key));
  wrapped(`error in remove for path: '${path}'`, () => setChild(target.node, target.key, operationValue(op)));
}

function move(state: PatchState, op: RawOperation): void {
  const from = wrapped('move operation failed to decode from', () => pointerField(op, 'from'));
  const source = findContainer(state.root, from);
  if (!source) throw new PatchApplyError(`move operation does not apply: doc is missing from path: ${from}: missing value`);
  const value = wrapped(`error in move for path: '${source.key}'`, () => childOf(source.node, source.key));
  wrapped(`error in move for path: '${source.key}'`, () => removeChild(source.node, source.key));
  const path = wrapped('move operation failed to decode path', () => pointerField(op, 'path'));
  const target = findContainer(state.root, path);
  if (!target) throw new PatchApplyError(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
  wrapped(`error in move for path: '${path}'`, () => addChild(target.node, target.key, value));
}

function test(state: PatchState, op: RawOperation): void {
  const path = wrapped('test operation failed to decode path', () => pointerField(op, 'path'));
  const failed = new PatchApplyError(`testing value ${path} failed: test failed`);
  const expected = operationValue(op);
  if (path === '') {
    if (expected === null) throw new PatchPanic(nilDereference);
    if (!nodesEqual(state.root, expected)) throw failed;
    return;
  }
  const target = findContainer(state.root, path);
  if (!target) throw new PatchApplyError(`test operation does not apply: is missing path: ${path}: missing value`);
  const actual = wrapped(`error in test for path: '${path}'`, () => childOf(target.node, target.key));
  if (actual === null) {
    // A missing or null member passes against a null value; v4.12 dereferences an absent value.
    if (expected === null) throw new PatchPanic(nilDereference);
    if (expected.raw !== undefined) throw failed;
    return;
  }
  if (expected === null || !nodesEqual(actual, expected)) throw failed;
}

function copy(state: PatchState, op: RawOperation): void {
  const from = wrapped('copy operation failed to decode from', () => pointerField(op, 'from'));
  const source = findContainer(state.root, from);
  if (!source) throw new PatchApplyError(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
  const value = wrapped(`error in copy for from: '${from}'`, () => childOf(source.node, source.key));
  const path = replaced('copy operation failed to decode path: missing value', () => pointerField(op, 'path'));
  const target = findContainer(state.root, path);
  if (!target) throw new PatchApplyError(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
  const { copy: duplicate, size } = copySlot(value);
  state.copiedBytes += size;
  const limit = state.options.accumulatedCopySizeLimit;
  if (limit > 0 && state.copiedBytes > limit) {
    throw new PatchApplyError(`Unable to complete the copy, the accumulated size increase of copy is ${state.copiedBytes}, exceeding the limit ${limit}`);
  }
  wrapped('error while adding value during copy', () => addChild(target.node, target.key, duplicate));
}
