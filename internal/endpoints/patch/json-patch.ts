/**
 * JSON patch (RFC 6902) through fast-json-patch, with kube's answers: a malformed patch document
 * is 400, a patch that cannot be applied (missing path, failed test) is 422.
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { newBadRequest } from '../../apierrors/factories.js';
import { StatusError } from '../../apierrors/status-error.js';

const validOps = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Parses and checks a JSON patch document; 400 when it is not a list of operations. */
export function decodeJsonPatch(value: unknown): Operation[] {
  if (!Array.isArray(value)) {
    throw newBadRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  for (const op of value) {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      throw newBadRequest('json: cannot unmarshal into Go value of type jsonpatch.Operation');
    }
    const o = op as Record<string, unknown>;
    if (typeof o.op !== 'string' || !validOps.has(o.op)) {
      throw new StatusError(422, 'Invalid', `Unexpected kind: ${String(o.op)}`);
    }
    if (typeof o.path !== 'string') throw new StatusError(422, 'Invalid', `${o.op} operation does not apply: doc is missing path: "${String(o.path ?? '')}": missing value`);
  }
  return value as Operation[];
}

/** Applies ops to doc without mutating it; 422 (reason Invalid) when an operation fails. */
export function applyJsonPatch(doc: unknown, ops: Operation[]): unknown {
  try {
    return fastJsonPatch.applyPatch(structuredClone(doc), ops, true, true, true).newDocument;
  } catch (err) {
    const e = err as { name?: string; message?: string; operation?: { op?: string; path?: string } };
    const op = e.operation?.op ?? '';
    const path = e.operation?.path ?? '';
    let message = e.message?.split('\n')[0] ?? 'patch failed';
    if (e.name === 'TEST_OPERATION_FAILED' || /Test operation failed/i.test(message)) message = `testing value ${path} failed: test failed`;
    else if (/OPERATION_PATH_UNRESOLVABLE|cannot perform|path/i.test(e.name ?? '') || /Cannot perform/i.test(message)) {
      message = `${op} operation does not apply: doc is missing path: "${path}": missing value`;
    }
    throw new StatusError(422, 'Invalid', message);
  }
}

const opFields = new Set(['op', 'path', 'value', 'from']);

/**
 * Strict-decoding findings of a JSON patch as kube words them: keys an operation does not have
 * (`json patch unknown field "foo"`) and keys an operation repeats (`json patch duplicate field
 * "path"`); repeats inside an operation's value are not seen, as in kube.
 */
export function jsonPatchFieldMessages(ops: readonly Operation[], duplicatePaths: readonly string[]): string[] {
  const out: string[] = [];
  for (const op of ops) {
    for (const key of Object.keys(op)) if (!opFields.has(key)) out.push(`json patch unknown field ${JSON.stringify(key)}`);
  }
  for (const p of duplicatePaths) {
    const m = /^\[\d+\]\.([^.[]+)$/.exec(p);
    if (m) out.push(`json patch duplicate field ${JSON.stringify(m[1])}`);
  }
  return out;
}
