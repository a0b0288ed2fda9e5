/**
 * The objects service account token validation looks up (kube's ServiceAccountTokenGetter): the
 * service account, and the secret, pod or node a token is bound to. Each read is served by the
 * watch cache (resourceVersion "0"); a miss there is asked of etcd once before it counts as gone,
 * as kube's getter falls back from its informer to a live read, so an object created a moment ago
 * is found.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { GetOptions, RestStorage } from '../../registry/interface.js';
import { systemUser, type RequestContext } from '../../request/context.js';
import type { AuthenticationDeps } from '../build.js';

const fromCache: GetOptions = { resourceVersion: '0' };
const live: GetOptions = { resourceVersion: '' };
const neverAborted = new AbortController().signal;

function lookupContext(resource: string, namespace: string, name: string): RequestContext {
  return {
    requestInfo: {
      isResourceRequest: true,
      path: '',
      verb: 'get',
      apiPrefix: 'api',
      apiGroup: '',
      apiVersion: 'v1',
      namespace,
      resource,
      subresource: '',
      name,
      parts: [resource, name],
    },
    user: systemUser,
    signal: neverAborted,
    warnings: [],
    userAgent: 'capstan-apiserver',
    receivedAt: 0,
  };
}

/** Reads core/v1 objects for the token authenticators. Throws the storage's StatusError (NotFound when gone). */
export class ServiceAccountTokenGetter {
  private readonly storages = new Map<string, RestStorage>();

  constructor(private readonly storageOf: AuthenticationDeps['storageOf']) {}

  private storage(resource: string): RestStorage {
    let s = this.storages.get(resource);
    if (!s) {
      s = this.storageOf('', resource);
      if (!s?.get) throw new Error(`${resource} are not served`);
      this.storages.set(resource, s);
    }
    return s;
  }

  private async get(resource: string, namespace: string, name: string): Promise<KubeObject> {
    const s = this.storage(resource);
    const get = s.get as NonNullable<RestStorage['get']>;
    const ctx = lookupContext(resource, namespace, name);
    try {
      return await get.call(s, ctx, name, fromCache);
    } catch (err) {
      if (!hasReason(err, 'NotFound')) throw err;
    }
    return await get.call(s, ctx, name, live);
  }

  serviceAccount(namespace: string, name: string): Promise<KubeObject> {
    return this.get('serviceaccounts', namespace, name);
  }

  secret(namespace: string, name: string): Promise<KubeObject> {
    return this.get('secrets', namespace, name);
  }

  pod(namespace: string, name: string): Promise<KubeObject> {
    return this.get('pods', namespace, name);
  }

  node(name: string): Promise<KubeObject> {
    return this.get('nodes', '', name);
  }
}
