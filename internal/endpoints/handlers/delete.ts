/**
 * DELETE of one object, with DeleteOptions from the body and the query: preconditions, grace
 * period, propagation policy, dry run. Answers 200 with a Status when the object is gone (or the
 * object for resources that return it), the object when it is only marked for deletion.
 */
import { successStatus } from '../../apierrors/status-error.js';
import { acceptedBodyTypes, bodyEncoding } from '../negotiation/media-type.js';
import { parseBody, readBody } from '../negotiation/body.js';
import { newUnsupportedMediaType } from '../../apierrors/factories.js';
import { outputFor, respondObject, validatingAdmission, type Handler, type HandlerInput } from './common.js';
import { checkDeleteOptionsBody } from './delete-options-body.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { parseDeleteOptions } from './options.js';
import type { DeleteOptions } from '../../registry/interface.js';

function withoutTypeMeta(body: Record<string, unknown>): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, ...rest } = body;
  return rest;
}

/** Reads DeleteOptions from an optional body and the query (recorded for audit when sent in a body). */
export async function readDeleteOptions(h: HandlerInput): Promise<DeleteOptions> {
  const raw = await readBody(h.req, undefined, h.res);
  let body: Record<string, unknown> | undefined;
  if (raw.length > 0) {
    const encoding = bodyEncoding(h.req.headers['content-type']);
    if (!encoding) throw newUnsupportedMediaType([...acceptedBodyTypes]);
    const value = parseBody(raw, encoding);
    // A JSON null decodes to empty options, as Go's decoder leaves a struct it is given null for.
    if (value !== null) {
      checkDeleteOptionsBody(value);
      body = value as Record<string, unknown>;
    }
    // kube records DeleteOptions sent in a body (as decoded: always with its kind and version).
    if (body && h.ctx.audit) h.ctx.audit.setRequestObject({ kind: 'DeleteOptions', apiVersion: typeof body.apiVersion === 'string' && body.apiVersion ? body.apiVersion : 'meta.k8s.io/v1', ...withoutTypeMeta(body) });
  }
  return parseDeleteOptions(body, h.query);
}

/** Serves delete. */
export const deleteHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.delete) throw methodNotAllowed();
  const opts = await readDeleteOptions(h);
  const name = h.ctx.requestInfo.name;
  const result = await storage.delete(h.ctx, name, opts, validatingAdmission(h, 'DELETE', opts.dryRun, opts));
  const code = !result.deleted && opts.orphanDependents === false ? 202 : 200;
  if (result.deleted && !result.returnDeletedObject) {
    await respondObject(
      h,
      target,
      code,
      successStatus({
        name,
        ...(h.scope.group ? { group: h.scope.group } : {}),
        kind: h.scope.resource,
        ...(result.object.metadata.uid ? { uid: result.object.metadata.uid } : {}),
      }),
    );
    return;
  }
  await respondObject(h, target, code, result.object);
};
