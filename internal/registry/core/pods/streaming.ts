/**
 * pods/exec, pods/attach and pods/portforward (kube's ExecREST, AttachREST, PortForwardREST):
 * the options come from the query, the container is resolved (defaulted to the only one), the
 * pod's node is located through the kubelet client, and the client's upgrade (SPDY or
 * WebSocket, GET or POST) is proxied to https://<kubelet>/exec|attach/<ns>/<pod>/<container> or
 * /portForward/<ns>/<pod>, the two connections joined byte for byte after the kubelet's 101. A
 * request that is not an upgrade is refused ("Upgrade request required"), as kube's
 * UpgradeAwareHandler with upgradeRequired refuses it.
 */
import { isIP } from 'node:net';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { KubeObject } from '../../../../api/meta/types.js';
import { proxyUpgrade } from '../../../aggregator/upgrade.js';
import { newBadRequest, newServiceUnavailable } from '../../../apierrors/factories.js';
import type { KubeletClient } from '../../../kubeletclient/interface.js';
import type { Logger } from '../../../observability/logging.js';
import type { RequestContext } from '../../../request/context.js';
import type { ConnectHandler, RestStorage } from '../../interface.js';
import { asObject, stringAt } from '../shared/json-value.js';
import { decodeStreamOptions, kubeletQuery, resolveContainer, type StreamKind } from './stream-options.js';

/** Request headers that stay here: the caller's credentials and hop-by-hop ones the proxy sets itself. */
const dropped = new Set(['host', 'authorization', 'proxy-authorization', 'content-length', 'transfer-encoding', 'keep-alive']);

function upstreamHeaders(req: IncomingMessage, host: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { host };
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || dropped.has(name) || name.startsWith('impersonate-')) continue;
    out[name] = value;
  }
  return out;
}

function isUpgrade(req: IncomingMessage): boolean {
  const connection = (req.headers.connection ?? '').toLowerCase().split(',').map((t) => t.trim());
  return connection.includes('upgrade') && typeof req.headers.upgrade === 'string' && req.headers.upgrade !== '';
}

/** One streaming subresource's storage (connect only). */
export class PodStreamStorage implements RestStorage {
  constructor(
    private readonly kind: StreamKind,
    private readonly pods: RestStorage,
    private readonly kubelets: KubeletClient | undefined,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  /** The options object of the request (CONNECT admission sees it). */
  connectOptions(query: URLSearchParams): KubeObject {
    return decodeStreamOptions(this.kind, query);
  }

  async connect(ctx: RequestContext, name: string, options: KubeObject): Promise<ConnectHandler> {
    const pod = await (this.pods.get as NonNullable<RestStorage['get']>).call(this.pods, ctx, name, { resourceVersion: '' });
    const container = this.kind === 'portforward' ? '' : resolveContainer(pod, stringAt(asObject(options), 'container'));
    const nodeName = stringAt(asObject(pod.spec), 'nodeName');
    if (nodeName === '') throw newBadRequest(`pod ${name} does not have a host assigned`);
    if (!this.kubelets) throw newServiceUnavailable('the API server has no kubelet client configured');
    const target = await this.kubelets.target(nodeName);
    const meta = asObject(pod.metadata);
    const ns = encodeURIComponent(stringAt(meta, 'namespace'));
    const podName = encodeURIComponent(stringAt(meta, 'name'));
    const path = this.kind === 'portforward' ? `/portForward/${ns}/${podName}` : `/${this.kind}/${ns}/${podName}/${encodeURIComponent(container)}`;
    const query = kubeletQuery(this.kind, options).toString();
    const url = `${target.scheme}://${target.host}${path}${query ? `?${query}` : ''}`;
    const hostname = target.host.replace(/^\[/, '').replace(/\](:\d+)?$/, '').replace(/:\d+$/, '');
    return async (req, res) => {
      if (!isUpgrade(req)) throw newBadRequest('Upgrade request required');
      await proxyUpgrade(req, res, url, { agent: target.agent, headers: upstreamHeaders(req, target.host), servername: isIP(hostname) ? '' : hostname, timeoutMs: target.timeoutMs }, this.log as Logger);
    };
  }
}
