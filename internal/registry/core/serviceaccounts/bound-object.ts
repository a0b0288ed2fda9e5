/**
 * The object a TokenRequest binds its token to (spec.boundObjectRef): a Pod running as the service
 * account (with the node it runs on), a Node or a Secret, read from storage with kube's errors — the
 * object's NotFound, 400 for another kind or another service account's pod, 409 when the
 * reference's uid is not the object's.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newConflict, newInternalError } from '../../../apierrors/factories.js';
import { hasReason } from '../../../apierrors/status-error.js';
import type { RequestContext } from '../../../request/context.js';
import type { ObjectRef } from '../../../serviceaccount/claims.js';
import type { GetOptions, RestStorage } from '../../interface.js';

/** Any served resource's storage (late-bound: asked while serving a request). */
export type StorageOf = (group: string, resource: string, subresource?: string) => RestStorage | undefined;

/** What the token is bound to. */
export interface BoundObjects {
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  readonly node?: ObjectRef;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The ctx of an in-request read of another resource (kube's newContext): verb get, same user and signal. */
function readContext(ctx: RequestContext, resource: string, name: string, namespace: string): RequestContext {
  return {
    ...ctx,
    requestInfo: {
      ...ctx.requestInfo,
      verb: 'get',
      apiGroup: '',
      apiVersion: 'v1',
      namespace,
      resource,
      subresource: '',
      name,
      parts: [resource, name],
    },
  };
}

function getter(storageOf: StorageOf, resource: string): (ctx: RequestContext, name: string, opts: GetOptions) => Promise<KubeObject> {
  const s = storageOf('', resource);
  if (!s?.get) throw newInternalError(`${resource} are not served`);
  return (ctx, name, opts) => (s.get as NonNullable<RestStorage['get']>).call(s, ctx, name, opts);
}

function refOf(obj: KubeObject): ObjectRef {
  const uid = obj.metadata.uid;
  return uid ? { name: obj.metadata.name ?? '', uid } : { name: obj.metadata.name ?? '' };
}

/** The node a pod runs on: from the cache, else live; a missing node is named without uid (kube's rule). */
async function nodeOfPod(ctx: RequestContext, storageOf: StorageOf, nodeName: string): Promise<ObjectRef> {
  const get = getter(storageOf, 'nodes');
  const nctx = readContext(ctx, 'nodes', nodeName, '');
  try {
    try {
      return refOf(await get(nctx, nodeName, { resourceVersion: '0' }));
    } catch {
      return refOf(await get(nctx, nodeName, { resourceVersion: '' }));
    }
  } catch (err) {
    if (hasReason(err, 'NotFound')) return { name: nodeName };
    throw newInternalError((err as Error).message);
  }
}

/** Resolves spec.boundObjectRef for service account saName in namespace; throws kube's StatusErrors. */
export async function resolveBoundObject(ctx: RequestContext, storageOf: StorageOf, namespace: string, saName: string, boundRef: unknown): Promise<BoundObjects> {
  if (typeof boundRef !== 'object' || boundRef === null) return {};
  const r = boundRef as Record<string, unknown>;
  const apiVersion = str(r.apiVersion);
  const kind = str(r.kind);
  const name = str(r.name);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  let out: BoundObjects;
  let uid: string | undefined;
  if (group === '' && kind === 'Pod') {
    const pod = await getter(storageOf, 'pods')(readContext(ctx, 'pods', name, namespace), name, { resourceVersion: '' });
    const spec = (pod.spec ?? {}) as Record<string, unknown>;
    if (str(spec.serviceAccountName) !== saName) throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with different serviceaccount name.`);
    uid = pod.metadata.uid;
    const nodeName = str(spec.nodeName);
    out = { pod: refOf(pod), ...(nodeName ? { node: await nodeOfPod(ctx, storageOf, nodeName) } : {}) };
  } else if (group === '' && kind === 'Node') {
    const node = await getter(storageOf, 'nodes')(readContext(ctx, 'nodes', name, ''), name, { resourceVersion: '' });
    uid = node.metadata.uid;
    out = { node: refOf(node) };
  } else if (group === '' && kind === 'Secret') {
    const secret = await getter(storageOf, 'secrets')(readContext(ctx, 'secrets', name, namespace), name, { resourceVersion: '' });
    uid = secret.metadata.uid;
    out = { secret: refOf(secret) };
  } else {
    throw newBadRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const wantUid = str(r.uid);
  if (wantUid !== '' && uid !== wantUid) {
    throw newConflict(
      { group, resource: kind },
      name,
      `the UID in the bound object reference (${wantUid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return out;
}
