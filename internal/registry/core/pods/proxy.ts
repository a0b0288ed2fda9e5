/**
 * pods/proxy (kube's pod ProxyREST and ResourceLocation): proxies any request to the pod's first
 * IP. The name is "pod", "pod:port" or "scheme:pod:port"; without a port the first port a
 * container declares is used. Only global unicast pod IPs are proxied to ("address not allowed").
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest } from '../../../apierrors/factories.js';
import { proxyHttp } from '../../../proxy/http-proxy.js';
import { isGlobalUnicast } from '../../../proxy/proxyable-ip.js';
import { joinHostPort, joinPreservingTrailingSlash, splitSchemeNamePort } from '../../../proxy/scheme-name-port.js';
import type { RequestContext } from '../../../request/context.js';
import type { ConnectHandler, RestStorage } from '../../interface.js';
import { arrayAt, asObject, numberAt, stringAt } from '../shared/json-value.js';

/** The pod's first IP (status.podIPs[0], or status.podIP as v1 also carries it). */
export function podIPOf(pod: KubeObject): string {
  const status = asObject(pod.status);
  const first = asObject(arrayAt(status, 'podIPs')[0]);
  return stringAt(first, 'ip') || stringAt(status, 'podIP');
}

function firstContainerPort(pod: KubeObject): string {
  for (const c of arrayAt(asObject(pod.spec), 'containers')) {
    const port = numberAt(asObject(arrayAt(asObject(c), 'ports')[0]), 'containerPort');
    if (port !== undefined) return String(port);
  }
  return '';
}

/** The pods/proxy storage: connect only. */
export class PodProxyStorage implements RestStorage {
  constructor(
    private readonly pods: RestStorage,
    /** --max-connection-bytes-per-sec (0: not throttled). */
    private readonly maxBytesPerSec = 0,
  ) {}

  async connect(ctx: RequestContext, id: string, options: KubeObject): Promise<ConnectHandler> {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw newBadRequest(`invalid pod request "${id}"`);
    const pod = await (this.pods.get as NonNullable<RestStorage['get']>).call(this.pods, ctx, parsed.name, { resourceVersion: '' });
    const port = parsed.port || firstContainerPort(pod);
    const ip = podIPOf(pod);
    if (!isGlobalUnicast(ip)) throw newBadRequest('address not allowed');
    const location = {
      scheme: parsed.scheme === 'https' ? ('https' as const) : ('http' as const),
      host: joinHostPort(ip, port || (parsed.scheme === 'https' ? '443' : '80')),
      path: joinPreservingTrailingSlash('', typeof options.path === 'string' ? options.path : ''),
      subpath: typeof options.path === 'string' ? options.path : '',
    };
    return async (req, res) => await proxyHttp(req, res, location, { maxBytesPerSec: this.maxBytesPerSec });
  }
}
