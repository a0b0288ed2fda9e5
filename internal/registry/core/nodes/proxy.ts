/**
 * nodes/proxy (kube's node ResourceLocation): /api/v1/nodes/<name>[:port]/proxy/<path> goes to the
 * node's kubelet, found as the kubelet client finds it, with the kubelet client's identity; a name
 * with another port ("scheme:name:port") goes to that port of the same address without it. Only
 * addresses that are not loopback or link-local are proxied to ("address not allowed").
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest } from '../../../apierrors/factories.js';
import type { KubeletClient } from '../../../kubeletclient/interface.js';
import { proxyHttp } from '../../../proxy/http-proxy.js';
import { joinHostPort, joinPreservingTrailingSlash, splitSchemeNamePort } from '../../../proxy/scheme-name-port.js';
import type { RequestContext } from '../../../request/context.js';
import type { ConnectHandler, RestStorage } from '../../interface.js';

/** kube's IsProxyableIP: not loopback, link-local unicast or multicast, interface-local multicast. */
export function isProxyableIP(ip: string): boolean {
  const lower = ip.toLowerCase();
  if (isIP(lower) === 4) return !lower.startsWith('127.') && !lower.startsWith('169.254.') && !lower.startsWith('224.0.0.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isProxyableIP(mapped[1] as string);
  return lower !== '::1' && !/^fe[89ab]/.test(lower) && !/^ff0[12]:/.test(lower);
}

/** The nodes/proxy storage: connect only. */
export class NodeProxyStorage implements RestStorage {
  constructor(
    private readonly kubelets: () => KubeletClient | undefined,
    private readonly maxBytesPerSec = 0,
  ) {}

  async connect(_ctx: RequestContext, id: string, options: KubeObject): Promise<ConnectHandler> {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw newBadRequest(`invalid node request "${id}"`);
    const kubelets = this.kubelets();
    if (!kubelets) throw newBadRequest('the API server has no kubelet client configured');
    const target = await kubelets.target(parsed.name);
    const hostname = target.host.startsWith('[') ? target.host.slice(1, target.host.lastIndexOf(']')) : target.host.slice(0, target.host.lastIndexOf(':'));
    const kubeletPort = target.host.slice(target.host.lastIndexOf(':') + 1);
    const addresses = isIP(hostname) ? [hostname] : (await lookup(hostname, { all: true }).catch(() => [])).map((a) => a.address);
    for (const a of addresses) if (!isProxyableIP(a)) throw newBadRequest('address not allowed');
    const subpath = typeof options.path === 'string' ? options.path : '';
    const toKubelet = parsed.port === '' || parsed.port === kubeletPort;
    const location = {
      scheme: toKubelet ? ('https' as const) : parsed.scheme === 'https' ? ('https' as const) : ('http' as const),
      host: toKubelet ? target.host : joinHostPort(hostname, parsed.port),
      path: joinPreservingTrailingSlash('', subpath),
      subpath,
    };
    return async (req, res) => await proxyHttp(req, res, location, { maxBytesPerSec: this.maxBytesPerSec, ...(toKubelet ? { agent: target.agent } : {}) });
  }
}
