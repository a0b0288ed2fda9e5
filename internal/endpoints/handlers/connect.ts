/**
 * Connect subresources (kube's ConnectResource: pods/proxy, services/proxy): the request's subpath
 * becomes the options' path, CONNECT admission (mutating, then validating) sees the options, and
 * the storage's handler serves the request, streaming. dryRun is refused, as kube does.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest } from '../../apierrors/factories.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { admissionAttributes, type Handler } from './common.js';

/** The subpath after <resource>/<name>/<subresource>, with a leading slash and the request's trailing one. */
export function connectSubpath(parts: readonly string[], requestPath: string): string {
  let p = parts.slice(3).join('/');
  if (p !== '' && !p.startsWith('/')) p = `/${p}`;
  if (requestPath.endsWith('/') && !p.endsWith('/')) p += '/';
  return p;
}

/** Serves a connect request. */
export const connectHandler: Handler = async (h) => {
  const storage = h.scope.storage;
  if (!storage.connect) throw methodNotAllowed();
  if (h.query.getAll('dryRun').length > 0) throw newBadRequest('dryRun is not supported');
  const info = h.ctx.requestInfo;
  const path = connectSubpath(info.parts, info.path);
  // metadata stays empty: the options carry none, but plugins may read object.metadata.
  const options: KubeObject = storage.connectOptions
    ? { ...storage.connectOptions(h.query), metadata: {} }
    : { kind: h.scope.kind, apiVersion: h.scope.apiVersion, metadata: {}, ...(path ? { path } : {}) };
  if (storage.connectAdmission !== false && h.admission.handles('CONNECT')) {
    const attrs = admissionAttributes(h, 'CONNECT', info.name, options, undefined, false);
    await h.admission.admit(attrs, h.ctx);
    await h.admission.validate(attrs, h.ctx);
  }
  const serve = await storage.connect(h.ctx, info.name, options);
  await serve(h.req, h.res);
};
