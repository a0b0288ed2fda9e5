/**
 * services/proxy (kube's service ProxyREST and ResourceLocation): proxies any request to one of the
 * Service's endpoints. The name is "svc", "svc:port" or "scheme:svc:port"; a port number is mapped
 * to the Service port's name, which selects the Endpoints port. Only addresses that are pods of the
 * namespace with that IP are used; none answers 503 `no endpoints available for service "x"`.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newServiceUnavailable } from '../../../apierrors/factories.js';
import { proxyHttp } from '../../../proxy/http-proxy.js';
import { joinHostPort, joinPreservingTrailingSlash, splitSchemeNamePort } from '../../../proxy/scheme-name-port.js';
import type { RequestContext } from '../../../request/context.js';
import type { ConnectHandler, RestStorage } from '../../interface.js';
import type { StorageOf } from '../serviceaccounts/bound-object.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt, type JsonObject } from '../shared/json-value.js';

function get(storage: RestStorage | undefined, ctx: RequestContext, name: string): Promise<KubeObject> {
  if (!storage?.get) throw new Error('storage cannot get');
  return storage.get(ctx, name, { resourceVersion: '' });
}

function shuffled<T>(items: readonly T[]): T[] {
  if (items.length === 0) return [];
  const seed = Math.floor(Math.random() * items.length);
  return items.map((_, i) => items[(seed + i) % items.length] as T);
}

/** The services/proxy storage: connect only. */
export class ServiceProxyStorage implements RestStorage {
  constructor(
    private readonly services: RestStorage,
    private readonly storageOf: StorageOf,
    /** --max-connection-bytes-per-sec (0: not throttled). */
    private readonly maxBytesPerSec = 0,
  ) {}

  /** isValidAddress: the address names a pod of this namespace that has this IP. */
  private async isPodAddress(ctx: RequestContext, addr: JsonObject): Promise<boolean> {
    const ref = objectAt(addr, 'targetRef');
    if (!ref || stringAt(ref, 'namespace') !== ctx.requestInfo.namespace) return false;
    try {
      const pod = await get(this.storageOf('', 'pods'), ctx, stringAt(ref, 'name'));
      const status = asObject(pod.status);
      const ips = arrayAt(status, 'podIPs').map((p) => stringAt(asObject(p), 'ip'));
      return ips.includes(stringAt(addr, 'ip')) || stringAt(status, 'podIP') === stringAt(addr, 'ip');
    } catch {
      return false;
    }
  }

  async connect(ctx: RequestContext, id: string, options: KubeObject): Promise<ConnectHandler> {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw newBadRequest(`invalid service request "${id}"`);
    let portName = parsed.port;
    if (/^[+-]?\d+$/.test(portName)) {
      const svc = await get(this.services, ctx, parsed.name);
      const wanted = Number(portName);
      const match = arrayAt(asObject(svc.spec), 'ports').map((p) => asObject(p)).find((p) => numberAt(p, 'port') === wanted);
      if (!match) throw newServiceUnavailable(`no service port ${wanted} found for service "${parsed.name}"`);
      portName = stringAt(match, 'name');
    }
    const endpoints = await get(this.storageOf('', 'endpoints'), ctx, parsed.name);
    const subsets = arrayAt(endpoints as JsonObject, 'subsets').map((s) => asObject(s) ?? {});
    if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service "${parsed.name}"`);
    for (const subset of shuffled(subsets)) {
      const addresses = arrayAt(subset, 'addresses').map((a) => asObject(a) ?? {});
      if (addresses.length === 0) continue;
      for (const port of arrayAt(subset, 'ports').map((p) => asObject(p) ?? {})) {
        if (stringAt(port, 'name') !== portName) continue;
        for (const addr of shuffled(addresses)) {
          if (!(await this.isPodAddress(ctx, addr))) continue;
          const location = {
            scheme: parsed.scheme === 'https' ? ('https' as const) : ('http' as const),
            host: joinHostPort(stringAt(addr, 'ip'), String(numberAt(port, 'port') ?? '')),
            path: joinPreservingTrailingSlash('', typeof options.path === 'string' ? options.path : ''),
            subpath: typeof options.path === 'string' ? options.path : '',
          };
          return async (req, res) => await proxyHttp(req, res, location, { maxBytesPerSec: this.maxBytesPerSec });
        }
      }
    }
    throw newServiceUnavailable(`no endpoints available for service "${id}"`);
  }
}
