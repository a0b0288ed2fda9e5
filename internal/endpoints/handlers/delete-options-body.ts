/**
 * The type check kube's decoder makes of a DeleteOptions body: a body that is not an object, or
 * whose fields have the wrong JSON types, cannot be decoded and the delete is refused with 400
 * BadRequest carrying the decoder's words (kube's handlers/delete.go), before anything is deleted.
 */
import { newBadRequest } from '../../apierrors/factories.js';

function goType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

const fields: Record<string, (v: unknown) => string | undefined> = {
  gracePeriodSeconds: (v) => (typeof v === 'number' && Number.isInteger(v) ? undefined : 'int64'),
  orphanDependents: (v) => (typeof v === 'boolean' ? undefined : 'bool'),
  ignoreStoreReadErrorWithClusterBreakingPotential: (v) => (typeof v === 'boolean' ? undefined : 'bool'),
  propagationPolicy: (v) => (typeof v === 'string' ? undefined : 'v1.DeletionPropagation'),
  apiVersion: (v) => (typeof v === 'string' ? undefined : 'string'),
  kind: (v) => (typeof v === 'string' ? undefined : 'string'),
};

function fieldError(struct: string, path: string, v: unknown, type: string): string {
  return `json: cannot unmarshal ${goType(v)} into Go struct field ${struct}.${path} of type ${type}`;
}

/** Throws 400 when body (decoded JSON, YAML or Protobuf; not null) cannot be decoded as a DeleteOptions. */
export function checkDeleteOptionsBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw newBadRequest(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(body)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const b = body as Record<string, unknown>;
  for (const [name, check] of Object.entries(fields)) {
    const v = b[name];
    if (v === undefined || v === null) continue;
    const type = check(v);
    if (type) throw newBadRequest(fieldError('DeleteOptions', name, v, type));
  }
  const dryRun = b.dryRun;
  if (dryRun !== undefined && dryRun !== null) {
    if (!Array.isArray(dryRun)) throw newBadRequest(fieldError('DeleteOptions', 'dryRun', dryRun, '[]string'));
    const bad = dryRun.find((d) => typeof d !== 'string');
    if (bad !== undefined) throw newBadRequest(fieldError('DeleteOptions', 'dryRun', bad, 'string'));
  }
  const pre = b.preconditions;
  if (pre === undefined || pre === null) return;
  if (typeof pre !== 'object' || Array.isArray(pre)) throw newBadRequest(fieldError('DeleteOptions', 'preconditions', pre, 'v1.Preconditions'));
  for (const [name, type] of [['uid', 'types.UID'], ['resourceVersion', 'string']] as const) {
    const v = (pre as Record<string, unknown>)[name];
    if (v !== undefined && v !== null && typeof v !== 'string') throw newBadRequest(fieldError('Preconditions', `preconditions.${name}`, v, type));
  }
}
